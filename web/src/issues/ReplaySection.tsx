/**
 * The issue page's Replay section (issue 33, docs/replay.md): with a replay, the player (a lazy chunk,
 * loaded when the section opens) and the timeline under it, each entry of which opens the player at its
 * moment; without one, the steps to reproduce and the errors as one numbered list, with why there is no
 * replay as far as the plan and the project tell.
 */
import { Alert, Button, Center, Group, Loader, Stack, Text } from '@mantine/core';
import { IconChevronUp, IconPlayerPlayFilled } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { IssueAnswer } from '#contracts/review';
import { useProfile } from '../accounts/data';
import { Section } from '../components/Section';
import { useProject } from '../projects/data';
import '../replay/texts';
import { SessionTimeline } from './SessionTimeline';
import { noReplayReason, replaySeconds, reportMoment, sessionItems } from './session-model';

const ReplayPlayer = lazy(() => import('../replay/ReplayPlayer'));

export function ReplaySection({ issue, projectId }: { issue: IssueAnswer; projectId: string }) {
  const { t } = useTranslation();
  const { data: profile } = useProfile();
  const { data: project } = useProject(projectId);
  const [open, setOpen] = useState(false);
  const [seek, setSeek] = useState<{ at: number; n: number } | null>(null);
  const items = sessionItems(issue);
  const report = reportMoment(issue);
  const { replay } = issue;
  if (!replay) {
    // The screen has both loaded already: these read the cache.
    const reason = noReplayReason(profile?.settings, project?.website.data?.widgetReplay === true);
    return (
      <Section
        title={t('replay.stepsTitle')}
        labelId="issue-session"
        description={t(`replay.noReplay${reason === 'plan' ? 'Plan' : reason === 'off' ? 'Off' : 'LeftOut'}`)}
      >
        {items.length > 1 ? (
          <SessionTimeline items={items} report={report} replay={null} />
        ) : (
          <Text size="sm">{t('replay.empty')}</Text>
        )}
      </Section>
    );
  }
  const seekTo = (at: number) => {
    setOpen(true);
    setSeek((s) => ({ at, n: (s?.n ?? 0) + 1 }));
  };
  return (
    <Section
      title={t('replay.title')}
      labelId="issue-session"
      description={t('replay.summary', { seconds: replaySeconds(replay) })}
    >
      <Group>
        <Button
          variant="light"
          size="sm"
          onClick={() => setOpen((o) => !o)}
          aria-expanded={open}
          aria-controls="issue-replay-player"
          leftSection={open ? <IconChevronUp size={14} /> : <IconPlayerPlayFilled size={14} />}
          data-testid="replay-open"
        >
          {open ? t('replay.hide') : t('replay.show')}
        </Button>
      </Group>
      {replay.stopped === 'mutations' && (
        <Alert color="yellow" variant="light" data-testid="replay-stopped">
          {t('replay.stopped')}
        </Alert>
      )}
      <div id="issue-replay-player">
        {open && (
          <Suspense
            fallback={
              <Center py="xl">
                <Loader aria-label={t('replay.loading')} />
              </Center>
            }
          >
            <ReplayPlayer source={{ siteId: projectId, name: replay.name }} seek={seek} />
          </Suspense>
        )}
      </div>
      <Stack gap={4}>
        <Text size="sm" fw={600}>
          {t('replay.timeline')}
        </Text>
        <Text size="xs" c="gray.7">
          {t('replay.timelineHint')}
        </Text>
        <SessionTimeline items={items} report={report} replay={replay} onSeek={seekTo} />
      </Stack>
    </Section>
  );
}
