/**
 * /profile (SPEC.md section 2): the project dashboard. A table of projects (stacked cards on phones), each
 * row with an active/inactive indicator, name, url, open issue count and owner, opening the project's
 * issues. 'New project' shows only below the plan's allowance, and only to a role that may create
 * projects in the team (issue 22: OWNER, ADMIN).
 */
import { Anchor, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconPlus, IconWorldWww } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useProfile } from '../accounts/data';
import { PageLoader } from '../components/PageLoader';
import { StateCard } from '../components/StateCard';
import { useDocumentTitle } from '../hooks/title';
import { paths } from '../paths';
import { useProjects } from '../projects/data';
import { belowAllowance } from '../projects/model';
import { ProjectCards, ProjectTable } from '../projects/ProjectList';
import { useCurrentTeam } from '../teams/data';
import { can } from '../teams/model';

export default function ProjectsScreen() {
  const { t } = useTranslation();
  useDocumentTitle(t('screens.dashboard'));
  const { data: list } = useProjects();
  const { data: profile } = useProfile();
  const { role } = useCurrentTeam();
  const wide = useMediaQuery('(min-width: 48em)', true);
  // The role decides what is offered: nothing shows before it is known.
  if (!list || !profile || !role) return <PageLoader />;

  const projects = list.websites;
  const allowed = profile.settings?.projects;
  const mayCreate = can(role, 'projects');
  const canCreate = mayCreate && belowAllowance(allowed, projects.length);
  const newButton = canCreate && (
    <Button component={Link} to={paths.createProject} leftSection={<IconPlus size={18} />}>
      {t('projects.newProject')}
    </Button>
  );

  return (
    <Stack gap="xl" maw={1080} mx="auto">
      <Group justify="space-between" align="flex-end" gap="md">
        <Stack gap={4}>
          <Title order={1} size="h2">
            {t('projects.title')}
          </Title>
          <Text c="dimmed">{t('projects.subtitle')}</Text>
        </Stack>
        {newButton ||
          (mayCreate && typeof allowed === 'number' && (
            <Text size="sm" c="dimmed">
              {t('projects.limitReached', { count: allowed })}{' '}
              <Anchor component={Link} to={paths.billing} fw={600}>
                {t('projects.upgrade')}
              </Anchor>
            </Text>
          ))}
      </Group>

      {projects.length === 0 ? (
        <StateCard
          icon={<IconWorldWww size={32} stroke={1.5} />}
          title={t('projects.empty')}
          text={mayCreate ? t('projects.emptyHint') : t('teams.noProjectsHint')}
          actions={newButton}
        />
      ) : wide ? (
        <ProjectTable projects={projects} />
      ) : (
        <ProjectCards projects={projects} />
      )}
    </Stack>
  );
}
