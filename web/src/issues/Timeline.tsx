/**
 * The timeline (issue 23): comments and activity interleaved, oldest first, paged by the API's
 * cursor ("Load more"), and the composer under it. A GUEST's answers leave internal comments out (the
 * server's rule); its composer writes public comments only.
 */
import { Button, Center, Loader, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Label } from '#contracts/triage';
import { Section } from '../components/Section';
import { can, type Role } from '../teams/model';
import { ActivityLine } from './ActivityLine';
import { CommentCard } from './CommentCard';
import { Composer } from './Composer';
import { useTimeline } from './data';
import type { TeamPerson } from './detail-model';
import { commentRights } from './detail-model';

export function Timeline({
  projectId,
  n,
  people,
  labels,
  self,
  role,
  locale,
}: {
  projectId: string;
  n: number;
  people: TeamPerson[];
  labels: Label[];
  self: string | null;
  role: Role;
  locale: string;
}) {
  const { t } = useTranslation();
  const timeline = useTimeline(projectId, n);
  return (
    <Section title={t('triageDetail.activity.title')} labelId="issue-timeline">
      <Stack gap="md">
        {!timeline.loaded && !timeline.failed && (
          <Center>
            <Loader size="sm" />
          </Center>
        )}
        {timeline.failed && (
          <Text size="sm" c="red.9" role="alert">
            {t('triageDetail.activity.loadFailed')}
          </Text>
        )}
        {timeline.loaded && timeline.entries.length === 0 && (
          <Text size="sm" c="dimmed">
            {t('triageDetail.activity.empty')}
          </Text>
        )}
        <Stack component="ol" gap="sm" m={0} p={0} style={{ listStyle: 'none' }} data-testid="timeline">
          {timeline.entries.map((entry) => (
            <li key={`${entry.type}-${entry.id}`}>
              {entry.type === 'comment' ? (
                <CommentCard
                  projectId={projectId}
                  n={n}
                  comment={entry}
                  rights={commentRights(entry.author, self, role)}
                  locale={locale}
                />
              ) : (
                <ActivityLine entry={entry} people={people} labels={labels} locale={locale} />
              )}
            </li>
          ))}
        </Stack>
        {timeline.more && (
          <Button variant="default" onClick={timeline.loadMore} loading={timeline.loadingMore}>
            {t('triageDetail.activity.loadMore')}
          </Button>
        )}
        <Composer
          projectId={projectId}
          n={n}
          people={people}
          internalAllowed={can(role, 'triage')}
          locale={locale}
        />
      </Stack>
    </Section>
  );
}
