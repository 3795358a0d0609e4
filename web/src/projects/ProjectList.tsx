/**
 * The dashboard's projects: a table from tablet width, stacked cards on phones. A row (or card) opens the
 * project's issues.
 */
import { Group, Paper, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { ProjectSummary } from '../api/types';
import { paths } from '../paths';
import { NameCell, OpenIssues } from './ProjectCells';

export function ProjectTable({ projects }: { projects: ProjectSummary[] }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Paper withBorder radius="lg" style={{ overflow: 'hidden' }}>
      {/* Fixed layout: the name column takes what the other two leave, so a long name wraps instead of
          pushing Issues and Owner out of the card. */}
      <Table highlightOnHover verticalSpacing="md" horizontalSpacing="lg" layout="fixed">
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
                <OpenIssues total={project.total} />
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

export function ProjectCards({ projects }: { projects: ProjectSummary[] }) {
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
              <OpenIssues total={project.total} />
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
