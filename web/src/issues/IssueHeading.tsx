/** The issue's heading under its project: the title's first line, its number, open or resolved, and its date. */
import { Badge, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { IssueAnswer } from '#contracts/review';
import { ProjectHeader } from '../projects/ProjectHeader';
import { formatDate, oneLineTitle } from './model';

export function IssueHeading({
  project,
  issue,
  locale,
}: {
  project: Parameters<typeof ProjectHeader>[0]['project'];
  issue: IssueAnswer;
  locale: string;
}) {
  const { t } = useTranslation();
  const resolved = issue.deleted === 1;
  return (
    <ProjectHeader
      project={project}
      title={oneLineTitle(issue.data.title)}
      subtitle={
        <Group gap="xs" component="span">
          <Badge variant="light" color="gray" size="lg" radius="sm" tt="none" data-testid="issue-number">
            #{issue.number}
          </Badge>
          <Badge
            variant="light"
            color={resolved ? 'gray' : 'brand'}
            size="lg"
            radius="sm"
            tt="none"
            data-testid="issue-state"
          >
            {resolved ? t('issue.stateResolved') : t('issue.stateOpen')}
          </Badge>
          <Text span size="sm" c="dimmed">
            {formatDate(issue.date_created.date, locale)}
          </Text>
        </Group>
      }
    />
  );
}
