/**
 * Confirms removing a member, or taking an ADMIN's rights (issue 31): says what they lose, and names each
 * API token of theirs that the change revokes with its creator (RevokedTokens; the server revokes them in
 * the same change, and withdraws the invitations they sent).
 */
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TeamDetail, TokenEntry } from './data';
import { personName } from './MemberRow';
import type { Role } from './model';
import { RevokedTokens } from './RevokedTokens';

type Member = TeamDetail['members'][number];

/** A change waiting for confirmation: `role` the new role, none for a removal. */
export interface MemberChange {
  member: Member;
  role?: Role;
}

export function MemberChangeDialog({
  change,
  tokens,
  onCancel,
  onConfirm,
}: {
  change: MemberChange | null;
  /** The team's tokens (the caller manages members, so may list them too). */
  tokens: TokenEntry[];
  onCancel: () => void;
  onConfirm: (change: MemberChange) => Promise<void>;
}) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const name = change ? personName(change.member) : '';
  const removal = change?.role === undefined;
  const revoked = change ? tokens.filter((token) => token.createdBy === change.member.userId) : [];
  const role = change?.role ? t(`teams.roles.${change.role}`) : '';
  const admin = change?.member.role === 'ADMIN';

  async function confirm() {
    if (!change) return;
    setBusy(true);
    try {
      await onConfirm(change);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal
      opened={change !== null}
      onClose={() => !busy && onCancel()}
      title={
        <Text fw={650} size="lg">
          {removal
            ? t('teams.members.removeTitle', { name })
            : t('teams.members.demoteTitle', { name, role })}
        </Text>
      }
      centered
      radius="lg"
      closeButtonProps={{ 'aria-label': t('deleteModal.close') }}
    >
      <Stack gap="sm" data-testid="member-change">
        <Text size="sm">
          {removal ? t('teams.members.removeText', { name }) : t('teams.members.demoteText', { name })}
        </Text>
        <RevokedTokens name={name} tokens={revoked} admin={admin} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel} disabled={busy}>
            {t('teams.members.cancel')}
          </Button>
          <Button color="red" loading={busy} onClick={() => void confirm()} data-autofocus>
            {removal ? t('teams.members.remove') : t('teams.members.demote')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
