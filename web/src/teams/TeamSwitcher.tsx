/**
 * The top bar's team switcher (issue 22): the team in use with the caller's role there, the other teams,
 * and "Create team". Choosing a team writes the `snag_team` cookie and reloads the team's data; the
 * dashboard opens, since a project screen of the old team has nothing to show in the new one.
 */
import { Group, Menu, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconCheck, IconPlus, IconSelector } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { paths } from '../paths';
import { CreateTeamDialog } from './CreateTeamDialog';
import { switchTeam, useCurrentTeam } from './data';
import { RoleBadge } from './RoleBadge';

export function TeamSwitcher() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { teams, team } = useCurrentTeam();
  const [creating, setCreating] = useState(false);
  if (!team) return null;

  async function choose(id: string) {
    if (id === team?.id) return;
    await switchTeam(id);
    navigate(paths.profile);
  }

  return (
    <>
      {/*
        In the banner, not a portal: every part of the page stays in a landmark (axe region). No focus
        placeholder: a focusable role=presentation div is no valid child of a menu (aria-required-children).
      */}
      <Menu
        position="bottom-start"
        width={280}
        shadow="md"
        withinPortal={false}
        withInitialFocusPlaceholder={false}
      >
        <Menu.Target>
          {/* Named by its content (team and role) and what it does, so the visible text is in the name. */}
          <UnstyledButton
            data-testid="team-switcher"
            title={team.name}
            style={{ borderRadius: 8, padding: '4px 8px', minWidth: 0 }}
          >
            <Group gap={8} wrap="nowrap">
              <Text size="sm" fw={600} truncate maw={200} style={{ minWidth: 0 }}>
                {team.name}
              </Text>
              <RoleBadge role={team.role} />
              <VisuallyHidden>{t('teams.switcher.label')}</VisuallyHidden>
              <IconSelector size={14} stroke={2} aria-hidden style={{ flexShrink: 0 }} />
            </Group>
          </UnstyledButton>
        </Menu.Target>
        <Menu.Dropdown>
          {/* A labelled group: a menu may hold only items, groups and separators (axe aria-required-children). */}
          {/* biome-ignore lint/a11y/useSemanticElements: a fieldset is a form's group, not a menu's. */}
          <div role="group" aria-labelledby="team-switcher-teams">
            <Menu.Label id="team-switcher-teams">{t('teams.switcher.teams')}</Menu.Label>
            {teams.map((entry) => (
              <Menu.Item
                key={entry.id}
                onClick={() => void choose(entry.id)}
                aria-current={entry.id === team.id ? 'true' : undefined}
                leftSection={
                  entry.id === team.id ? <IconCheck size={16} aria-hidden /> : <span style={{ width: 16 }} />
                }
                rightSection={<RoleBadge role={entry.role} />}
              >
                <Text size="sm" truncate maw={160}>
                  {entry.name}
                </Text>
              </Menu.Item>
            ))}
          </div>
          <Menu.Divider />
          <Menu.Item leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setCreating(true)}>
            {t('teams.switcher.create')}
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <CreateTeamDialog opened={creating} onClose={() => setCreating(false)} />
    </>
  );
}
