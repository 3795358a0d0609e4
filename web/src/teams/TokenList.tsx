/**
 * Team settings, API tokens (issue 25): each token's name, scopes, prefix, creator (issue 31: removing or
 * demoting them revokes it), dates, and Revoke (at once).
 */
import { Badge, Button, Code, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { errorCodeOf } from '../api';
import { RowList, RowListItem } from '../components/RowList';
import { Section } from '../components/Section';
import { toastError, toastSuccess } from '../components/toast';
import { displayLocale, errorText } from '../i18n';
import { revokeToken, type TokenEntry } from './data';

const day = (iso: string) => new Date(iso).toLocaleDateString(displayLocale(), { dateStyle: 'medium' });

export function TokenList({ teamId, tokens }: { teamId: string; tokens: TokenEntry[] }) {
  const { t } = useTranslation();

  async function revoke(token: TokenEntry) {
    try {
      await revokeToken(teamId, token.id);
      toastSuccess(t('teams.tokens.revoked', { name: token.name }));
    } catch (error) {
      toastError(errorText(errorCodeOf(error)));
    }
  }

  return (
    <Section title={t('teams.tokens.listTitle')} labelId="token-list">
      <RowList testId="token-list" empty={tokens.length === 0 && t('teams.tokens.none')}>
        {tokens.map((token) => {
          const expired = token.expires !== null && Date.parse(token.expires) <= Date.now();
          return (
            <RowListItem key={token.id} testId={`token-${token.name}`}>
              <Stack gap={4} style={{ minWidth: 0, flex: '1 1 260px' }}>
                <Group gap="xs" wrap="wrap">
                  <Text size="sm" fw={600}>
                    {token.name}
                  </Text>
                  <Code>{token.prefix}…</Code>
                  {expired && <Badge color="red">{t('teams.tokens.expired')}</Badge>}
                </Group>
                <Group gap={4} wrap="wrap">
                  {token.scopes.map((scope) => (
                    <Badge key={scope} variant="light" color="gray" tt="none">
                      {scope}
                    </Badge>
                  ))}
                </Group>
                <Text size="xs" c="dimmed">
                  {t('teams.tokens.createdBy', {
                    name: token.creatorName ?? t('teams.tokens.creatorUnknown'),
                  })}
                </Text>
                <Text size="xs" c="dimmed">
                  {t('teams.tokens.dates', {
                    created: day(token.created),
                    used: token.lastUsed ? day(token.lastUsed) : t('teams.tokens.never'),
                    expires: token.expires ? day(token.expires) : t('teams.tokens.noExpiry'),
                  })}
                </Text>
              </Stack>
              <Button
                variant="subtle"
                color="red"
                size="xs"
                aria-label={t('teams.tokens.revokeLabel', { name: token.name })}
                onClick={() => void revoke(token)}
              >
                {t('teams.tokens.revoke')}
              </Button>
            </RowListItem>
          );
        })}
      </RowList>
    </Section>
  );
}
