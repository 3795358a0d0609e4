/**
 * What losing a team's management rights takes with it (issue 31), said the same way wherever it happens:
 * removing or demoting a member, and leaving. Names each API token of theirs that the server revokes in the
 * same change, with its creator, and, for an ADMIN, that the invitations they sent are withdrawn.
 */
import { List, Text } from '@mantine/core';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { TokenEntry } from './data';

export function RevokedTokens({
  name,
  tokens,
  admin,
  self = false,
}: {
  /** Whose rights go: the member's name, or the caller's own when leaving. */
  name: string;
  /** Their tokens only (the caller filters the team's list by creator). */
  tokens: TokenEntry[];
  /** Only an ADMIN may have made tokens or invitations: the rest say nothing. */
  admin: boolean;
  /** The caller leaves: the texts speak to them ("Your …"). */
  self?: boolean;
}) {
  const { t } = useTranslation();
  const listId = useId();
  return (
    <>
      {tokens.length > 0 ? (
        <>
          <Text size="sm" id={listId}>
            {self
              ? t('teams.members.tokensRevokedSelf', { count: tokens.length })
              : t('teams.members.tokensRevoked', { name, count: tokens.length })}
          </Text>
          <List size="sm" aria-labelledby={listId} data-testid="revoked-tokens">
            {tokens.map((token) => (
              <List.Item key={token.id}>
                {t('teams.members.tokenBy', { token: token.name, creator: token.creatorName ?? name })}
              </List.Item>
            ))}
          </List>
        </>
      ) : (
        admin && (
          <Text size="sm" c="dimmed">
            {self ? t('teams.members.noTokensSelf') : t('teams.members.noTokens', { name })}
          </Text>
        )
      )}
      {admin && (
        <Text size="sm" c="dimmed">
          {self
            ? t('teams.members.invitationsWithdrawnSelf')
            : t('teams.members.invitationsWithdrawn', { name })}
        </Text>
      )}
    </>
  );
}
