/** Who invites the visitor to which team and role, and the address the invitation was sent to. */
import { Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { InvitationView } from '#contracts/teams';
import { AuthHeading } from '../accounts/AuthHeading';

export function InvitationSummary({ invitation }: { invitation: InvitationView }) {
  const { t } = useTranslation();
  const { team, inviter, role, email } = invitation;
  const name = [inviter.firstName, inviter.lastName].filter(Boolean).join(' ');
  return (
    <Stack gap="sm">
      <AuthHeading
        title={t('invitation.title', { team: team.name })}
        subtitle={t('invitation.invitedBy', { name, team: team.name, role: t(`invitation.role.${role}`) })}
      />
      <Text size="sm">{t(`teams.roleRights.${role}`)}</Text>
      <Text size="sm" c="dimmed">
        {t('invitation.sentTo')}{' '}
        <Text span fw={600} c="var(--mantine-color-text)" data-testid="invitation-email">
          {email}
        </Text>
      </Text>
    </Stack>
  );
}
