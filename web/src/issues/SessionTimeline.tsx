/**
 * The one timeline of an issue (docs/replay.md, "The issue page"): steps, console errors, failed requests
 * and the report, oldest first, each with how long before the report it happened. With a replay, an entry
 * the recording covers is a button that shows the replay at that moment; without one the same list reads
 * as numbered steps to reproduce with the errors between them.
 */
import { Badge, Box, Group, Text, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { stepTarget } from '#contracts/intake';
import type { IssueReplayAnswer } from '#contracts/review';
import { type SessionItem, seekable, whenBefore } from './session-model';

const badgeColor: Record<SessionItem['kind'], string> = {
  step: 'brand',
  error: 'red',
  request: 'orange',
  report: 'gray',
};

export function SessionTimeline({
  items,
  report,
  replay,
  onSeek,
}: {
  items: SessionItem[];
  report: number;
  replay: IssueReplayAnswer | null;
  /** Shows the replay at a moment (epoch ms); absent without a replay. */
  onSeek?: (at: number) => void;
}) {
  const { t } = useTranslation();
  const when = (at: number) => {
    const w = whenBefore(at, report);
    return w.key === 'before' ? t('replay.before', { count: w.count }) : t(`replay.${w.key}`);
  };
  const what = (item: SessionItem) =>
    item.kind === 'step' ? t(`replay.kinds.${item.step.kind}`) : t(`replay.kinds.${item.kind}`);
  const detail = (item: SessionItem) => {
    if (item.kind === 'report') return '';
    if (item.kind !== 'step') return item.log.msg;
    // The widget's role word ("button") in the dashboard's language, the page's own name as it was.
    const target = stepTarget(item.step);
    return target
      ? t('replay.target', { role: t(`replay.roles.${target.role}`), name: target.name })
      : item.step.label;
  };
  return (
    <Box component="ol" m={0} p={0} style={{ listStyle: 'none' }} data-testid="session-timeline">
      {items.map((item, i) => {
        const canSeek = onSeek !== undefined && seekable(item.at, replay);
        const body = (
          <Group gap="xs" wrap="wrap" align="flex-start">
            <Badge size="sm" variant="light" color={badgeColor[item.kind]} style={{ flexShrink: 0 }}>
              {item.kind === 'step' ? t('replay.step', { number: item.number }) : what(item)}
            </Badge>
            <Box style={{ minWidth: 0, flex: '1 1 12rem' }}>
              <Text
                size="sm"
                style={{ overflowWrap: 'anywhere' }}
                ff={item.kind === 'step' ? undefined : 'monospace'}
              >
                {item.kind === 'step' && <strong>{what(item)} </strong>}
                {detail(item)}
              </Text>
              <Text size="xs" c="gray.7">
                {when(item.at)}
                {onSeek !== undefined && !canSeek && item.kind !== 'report'
                  ? ` · ${t('replay.outside')}`
                  : ''}
              </Text>
            </Box>
          </Group>
        );
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: the timeline is a fixed record; entries never move.
          <li key={i} data-testid="timeline-item" data-kind={item.kind}>
            {canSeek ? (
              <UnstyledButton
                onClick={() => onSeek(item.at)}
                className="snag-timeline-entry"
                w="100%"
                p={6}
                style={{ borderRadius: 4 }}
                data-testid="timeline-seek"
              >
                {body}
              </UnstyledButton>
            ) : (
              <Box p={6}>{body}</Box>
            )}
          </li>
        );
      })}
    </Box>
  );
}
