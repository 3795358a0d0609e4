/**
 * /profile/team, seats (issue 22): member seats used of the plan's (the owner counts), guests of the
 * guest seats, and the way to more: billing for the OWNER, a word about the owner for the others.
 */
import { Anchor, Group, Progress, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { Section } from '../components/Section';
import { paths } from '../paths';

import type { TeamDetail } from './data';

export function Seats({
  seats,
  billing,
}: {
  /** Used of the effective plan's (limit null: unlimited). */
  seats: TeamDetail['team']['seats'];
  /** The caller may pay (OWNER): the upgrade link, else who to ask. */
  billing: boolean;
}) {
  const { t } = useTranslation();
  const { members, guests } = seats;
  const full = members.limit !== null && members.used >= members.limit;
  return (
    <Section title={t('teams.seats.title')} labelId="team-seats">
      <Stack gap="sm" data-testid="team-seats">
        <Text size="sm">
          {members.limit === null
            ? t('teams.seats.membersUnlimited', { used: members.used })
            : t('teams.seats.members', { used: members.used, total: members.limit })}
        </Text>
        {members.limit !== null && (
          <Progress
            value={Math.min(100, (members.used / Math.max(1, members.limit)) * 100)}
            color={full ? 'orange' : 'brand'}
            aria-hidden
          />
        )}
        <Text size="sm">
          {guests.limit === null
            ? t('teams.seats.guestsUnlimited', { used: guests.used })
            : t('teams.seats.guests', { used: guests.used, total: guests.limit })}
        </Text>
        <Group>
          {billing ? (
            <Anchor component={Link} to={paths.billing} fw={600} size="sm">
              {t('teams.seats.upgrade')}
            </Anchor>
          ) : (
            <Text size="sm" c="dimmed">
              {t('teams.seats.askOwner')}
            </Text>
          )}
        </Group>
      </Stack>
    </Section>
  );
}
