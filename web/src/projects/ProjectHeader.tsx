/** The heading of a project screen: the project's name and domain above the screen title, with its status. */
import { Badge, Group, Stack, Text, Title } from '@mantine/core';
import { IconWorld } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { displayDomain } from '#contracts/domains';
import type { ProjectSummary } from '../api/types';

export function ProjectHeader({
  project,
  title,
  subtitle,
}: {
  project: ProjectSummary;
  title: string;
  subtitle?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Stack gap={6}>
      <Group gap={8} wrap="wrap">
        {/* Name and domain may each be one 100-letter word: they wrap anywhere rather than widen the page. */}
        <Text size="sm" fw={650} c="brand.7" miw={0} style={{ overflowWrap: 'anywhere' }}>
          {project.name}
        </Text>
        <Group gap={4} wrap="nowrap" miw={0}>
          <IconWorld size={14} color="var(--mantine-color-dimmed)" style={{ flex: 'none' }} />
          <Text
            size="sm"
            c="dimmed"
            data-testid="project-domain"
            miw={0}
            style={{ overflowWrap: 'anywhere' }}
          >
            {displayDomain(project.domain)}
          </Text>
        </Group>
        <Badge size="sm" variant="light" color={project.active ? 'teal' : 'gray'}>
          {project.active ? t('project.active') : t('project.inactive')}
        </Badge>
        {project.activeParam === 1 && (
          <Badge size="sm" variant="light" color="yellow">
            {t('project.testMode')}
          </Badge>
        )}
      </Group>
      <Title order={1} size="h2">
        {title}
      </Title>
      {subtitle && (
        <Text c="dimmed" maw={720}>
          {subtitle}
        </Text>
      )}
    </Stack>
  );
}
