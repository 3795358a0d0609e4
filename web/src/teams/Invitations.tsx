/**
 * /profile/team, pending invitations (issue 22): address, role, expiry, with Resend (a new link; the old
 * one stops working) and Revoke. Shown to those who may manage members; the answer holds none for others.
 */
import { Button, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { errorCodeOf } from '../api';
import { RowList, RowListItem } from '../components/RowList';
import { Section } from '../components/Section';
import { toastError, toastSuccess } from '../components/toast';
import { displayLocale, errorText } from '../i18n';
import { invite, revokeInvitation, type TeamDetail } from './data';
import { RoleBadge } from './RoleBadge';

type Invitation = TeamDetail['invitations'][number];

export function Invitations({ teamId, invitations }: { teamId: string; invitations: Invitation[] }) {
  const { t } = useTranslation();

  async function run(action: () => Promise<unknown>, done: string) {
    try {
      await action();
      toastSuccess(done);
    } catch (error) {
      toastError(errorText(errorCodeOf(error)));
    }
  }

  return (
    <Section title={t('teams.invitations.title')} labelId="team-invitations">
      <RowList testId="team-invitations" empty={invitations.length === 0 && t('teams.invitations.none')}>
        {invitations.map((inv) => (
          <RowListItem key={inv.id} testId={`invitation-${inv.email}`}>
            <Stack gap={2} style={{ minWidth: 0, flex: '1 1 220px' }}>
              <Group gap="xs" wrap="nowrap">
                <Text size="sm" fw={600} truncate>
                  {inv.email}
                </Text>
                <RoleBadge role={inv.role} />
              </Group>
              <Text size="xs" c="dimmed">
                {t('teams.invitations.expires', {
                  date: new Date(inv.expires).toLocaleDateString(displayLocale(), { dateStyle: 'medium' }),
                })}
              </Text>
            </Stack>
            <Group gap="xs" wrap="nowrap">
              <Button
                variant="default"
                size="xs"
                aria-label={t('teams.invitations.resendLabel', { email: inv.email })}
                onClick={() =>
                  void run(
                    () => invite(teamId, { email: inv.email, role: inv.role, projects: inv.projects }),
                    t('teams.invitations.resent', { email: inv.email }),
                  )
                }
              >
                {t('teams.invitations.resend')}
              </Button>
              <Button
                variant="subtle"
                color="red"
                size="xs"
                aria-label={t('teams.invitations.revokeLabel', { email: inv.email })}
                onClick={() =>
                  void run(
                    () => revokeInvitation(teamId, inv.id),
                    t('teams.invitations.revoked', { email: inv.email }),
                  )
                }
              >
                {t('teams.invitations.revoke')}
              </Button>
            </Group>
          </RowListItem>
        ))}
      </RowList>
    </Section>
  );
}
