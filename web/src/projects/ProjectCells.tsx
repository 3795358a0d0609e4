/** What the dashboard shows of one project: active or not, name and domain, paused, and its open issues. */
import { Anchor, Badge, Box, Group, Stack, Text, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { displayDomain } from '#contracts/domains';
import type { ProjectSummary } from '../api/types';
import { paths } from '../paths';

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

export function OpenIssues({ total }: { total: number }) {
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

export function NameCell({ project }: { project: ProjectSummary }) {
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
          // A name may be one 100-letter word: it wraps anywhere rather than run out of its cell.
          style={{ overflowWrap: 'anywhere' }}
        >
          {project.name}
        </Anchor>
        <Text
          size="sm"
          c="dimmed"
          truncate
          title={displayDomain(project.domain)}
          data-testid="project-domain"
        >
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
