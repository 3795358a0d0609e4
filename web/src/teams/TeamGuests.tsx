/**
 * /profile/team, guests (issue 22): each guest with the projects they see. An OWNER or ADMIN changes the
 * projects (1 to 25 of this team's) or removes the guest; others read them.
 */
import { ActionIcon, Button, Group, MultiSelect, Stack, Text, Tooltip } from '@mantine/core';
import { IconUserMinus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorCodeOf } from '../api';
import { Section } from '../components/Section';
import { toastError, toastSuccess } from '../components/toast';
import { errorText } from '../i18n';
import { changeMember, removeMember, type TeamDetail } from './data';
import { MemberRow, personName } from './MemberRow';

type Member = TeamDetail['members'][number];
export interface ProjectOption {
  value: string;
  label: string;
}

export function TeamGuests({
  teamId,
  guests,
  projects,
  manage,
}: {
  teamId: string;
  guests: Member[];
  /** The team's projects, for names and choices. */
  projects: ProjectOption[];
  manage: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Section
      title={t('teams.guests.title')}
      description={t('teams.guests.description')}
      labelId="team-guests"
    >
      <Stack gap={0} data-testid="team-guests">
        {guests.length === 0 && (
          <Text size="sm" c="dimmed">
            {t('teams.guests.none')}
          </Text>
        )}
        {guests.map((guest) => (
          <Guest key={guest.userId} teamId={teamId} guest={guest} projects={projects} manage={manage} />
        ))}
      </Stack>
    </Section>
  );
}

function Guest({
  teamId,
  guest,
  projects,
  manage,
}: {
  teamId: string;
  guest: Member;
  projects: ProjectOption[];
  manage: boolean;
}) {
  const { t } = useTranslation();
  const name = personName(guest);
  const current = guest.projects ?? [];
  const [chosen, setChosen] = useState<string[]>(current);
  const [saving, setSaving] = useState(false);
  // A project the list does not know (deleted since) still shows, so the guest's list reads true.
  const options = [
    ...projects,
    ...current
      .filter((id) => !projects.some((p) => p.value === id))
      .map((id) => ({ value: id, label: t('teams.guests.unknownProject') })),
  ];
  const changed = chosen.join() !== current.join();

  async function run(action: () => Promise<void>, done: string) {
    setSaving(true);
    try {
      await action();
      toastSuccess(done);
    } catch (error) {
      toastError(errorText(errorCodeOf(error)));
    } finally {
      setSaving(false);
    }
  }

  return (
    <MemberRow person={guest} self={false}>
      {manage ? (
        <Group gap="xs" wrap="nowrap" align="flex-end">
          <MultiSelect
            aria-label={t('teams.guests.projectsOf', { name })}
            data={options}
            value={chosen}
            onChange={setChosen}
            maxValues={25}
            w={{ base: 180, sm: 260 }}
          />
          {changed && (
            <Button
              size="sm"
              loading={saving}
              disabled={chosen.length === 0}
              onClick={() =>
                void run(
                  () => changeMember(teamId, guest.userId, { role: 'GUEST', projects: chosen }),
                  t('teams.guests.saved', { name }),
                )
              }
            >
              {t('teams.guests.saveProjects')}
            </Button>
          )}
          <Tooltip label={t('teams.members.removeLabel', { name })}>
            <ActionIcon
              variant="subtle"
              color="red"
              size={36}
              aria-label={t('teams.members.removeLabel', { name })}
              onClick={() =>
                void run(() => removeMember(teamId, guest.userId), t('teams.members.removed', { name }))
              }
            >
              <IconUserMinus size={18} />
            </ActionIcon>
          </Tooltip>
        </Group>
      ) : (
        <Text size="sm" c="dimmed">
          {options
            .filter((o) => current.includes(o.value))
            .map((o) => o.label)
            .join(', ')}
        </Text>
      )}
    </MemberRow>
  );
}
