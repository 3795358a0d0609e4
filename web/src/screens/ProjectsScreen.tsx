/**
 * /profile (SPEC.md section 2): the project dashboard. A table of projects (stacked cards on phones), each
 * row with an active/inactive indicator, name, url, open issue count and owner, opening the project's
 * issues. 'New project' shows only below the plan's allowance.
 */
import { Anchor, Badge, Box, Button, Group, Paper, Stack, Table, Text, Title, Tooltip } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconPlus, IconWorldWww } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { displayDomain } from '#contracts/domains';
import type { ProjectSummary } from '../api/types';
import { paths } from '../app/paths';
import { PageLoader } from '../components/PageLoader';
import { StateCard } from '../components/StateCard';
import { useDocumentTitle } from '../hooks/useDocumentTitle';
import { useProfile, useProjects } from '../projects/hooks';
import { belowAllowance } from '../projects/model';

export default function ProjectsScreen() {
  const { t } = useTranslation();
  useDocumentTitle(t('screens.dashboard'));
  const { data: list } = useProjects();
  const { data: profile } = useProfile();
  const wide = useMediaQuery('(min-width: 48em)', true);
  if (!list || !profile) return <PageLoader />;

  const projects = list.websites;
  const allowed = profile.settings?.projects;
  const canCreate = belowAllowance(allowed, projects.length);
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
          (typeof allowed === 'number' && (
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
          text={t('projects.emptyHint')}
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

function StatusDot({ active }: { active: boolean }) {
  const { t } = useTranslation();
  const label = active ? t('projects.active') : t('projects.inactive');
  return (
    <Tooltip label={label} withArrow>
      <Box
        role="img"
        aria-label={label}
        w={10}
        h={10}
        style={{
          flex: 'none',
          borderRadius: '50%',
          background: active ? 'var(--mantine-color-teal-5)' : 'var(--mantine-color-gray-4)',
          boxShadow: active
            ? '0 0 0 3px var(--mantine-color-teal-1)'
            : '0 0 0 3px var(--mantine-color-gray-1)',
        }}
      />
    </Tooltip>
  );
}

function Issues({ total }: { total: number }) {
  const { t } = useTranslation();
  return total > 0 ? (
    <Badge variant="light" size="lg" radius="sm" tt="none" fw={600}>
      {t('projects.issueCount', { count: total })}
    </Badge>
  ) : (
    <Text size="sm" c="dimmed">
      {t('projects.noIssues')}
    </Text>
  );
}

function NameCell({ project }: { project: ProjectSummary }) {
  const { t } = useTranslation();
  return (
    <Group gap="md" wrap="nowrap">
      <StatusDot active={project.active === 1} />
      <Stack gap={0} style={{ minWidth: 0 }}>
        <Anchor
          component={Link}
          to={paths.site(project.uuid)}
          fw={600}
          c="var(--mantine-color-text)"
          aria-label={t('projects.open', { name: project.name })}
          onClick={(event) => event.stopPropagation()}
          truncate
        >
          {project.name}
        </Anchor>
        <Text size="sm" c="dimmed" truncate data-testid="project-domain">
          {displayDomain(project.domain)}
        </Text>
        {project.paused && (
          <Tooltip label={t('billing.pausedHint')} multiline w={260}>
            <Badge color="orange" variant="light" size="sm" w="fit-content" data-testid="project-paused">
              {t('billing.paused')}
            </Badge>
          </Tooltip>
        )}
      </Stack>
    </Group>
  );
}

function ProjectTable({ projects }: { projects: ProjectSummary[] }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Paper withBorder radius="lg" style={{ overflow: 'hidden' }}>
      <Table highlightOnHover verticalSpacing="md" horizontalSpacing="lg">
        <Table.Thead bg="var(--mantine-color-gray-0)">
          <Table.Tr>
            <Table.Th>{t('projects.name')}</Table.Th>
            <Table.Th w={180}>{t('projects.issues')}</Table.Th>
            <Table.Th w={220}>{t('projects.owner')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {projects.map((project) => (
            <Table.Tr
              key={project.uuid}
              onClick={() => navigate(paths.site(project.uuid))}
              style={{ cursor: 'pointer' }}
              data-testid="project-row"
            >
              <Table.Td>
                <NameCell project={project} />
              </Table.Td>
              <Table.Td>
                <Issues total={project.total} />
              </Table.Td>
              <Table.Td>
                <Text size="sm">{project.owner}</Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Paper>
  );
}

function ProjectCards({ projects }: { projects: ProjectSummary[] }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
      {projects.map((project) => (
        <Paper
          component="li"
          key={project.uuid}
          withBorder
          radius="lg"
          p="md"
          onClick={() => navigate(paths.site(project.uuid))}
          style={{ cursor: 'pointer' }}
          data-testid="project-row"
        >
          <Stack gap="sm">
            <NameCell project={project} />
            <Group justify="space-between" gap="xs">
              <Issues total={project.total} />
              <Text size="sm" c="dimmed">
                {t('projects.owner')}: {project.owner}
              </Text>
            </Group>
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}
