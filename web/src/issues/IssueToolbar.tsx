/**
 * The issue screen's top row: back to the list, Previous and Next in the list's order, Resolve or Reopen
 * (for a role that may triage: not a GUEST).
 */
import { Anchor, Box, Button, Group } from '@mantine/core';
import {
  IconArchive,
  IconArrowLeft,
  IconChevronLeft,
  IconChevronRight,
  IconRestore,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { paths } from '../paths';
import type { IssueMoves } from './useIssueMoves';

export function IssueToolbar({
  projectId,
  resolved,
  moves,
  triage,
}: {
  projectId: string;
  resolved: boolean;
  moves: IssueMoves;
  triage: boolean;
}) {
  const { t } = useTranslation();
  const { back, previous, next, keep, busy, toggle } = moves;
  const backLabel = back.startsWith(paths.board(projectId))
    ? t('board.backBoard')
    : back.startsWith(paths.resolved(projectId))
      ? t('issue.backResolved')
      : t('issue.backOpen');
  return (
    <Group justify="space-between" gap="sm">
      <Anchor component={Link} to={back} size="sm" fw={600}>
        <Group gap={4} wrap="nowrap">
          <IconArrowLeft size={16} />
          {backLabel}
        </Group>
      </Anchor>
      <Group gap="xs">
        <Button.Group>
          <NeighbourButton to={previous} state={keep} direction="previous" />
          <NeighbourButton to={next} state={keep} direction="next" />
        </Button.Group>
        {triage && (
          <Button
            onClick={() => void toggle()}
            loading={busy}
            color={resolved ? 'brand' : 'teal'}
            leftSection={resolved ? <IconRestore size={16} /> : <IconArchive size={16} />}
          >
            {resolved ? t('issue.restore') : t('issue.close')}
          </Button>
        )}
      </Group>
    </Group>
  );
}

/** Previous (the issue above) or Next (below) in the list's order; disabled at either end of the list. */
function NeighbourButton({
  to,
  state,
  direction,
}: {
  to: string | null;
  state: unknown;
  direction: 'previous' | 'next';
}) {
  const { t } = useTranslation();
  const icon = direction === 'previous' ? <IconChevronLeft size={16} /> : <IconChevronRight size={16} />;
  const props = {
    variant: 'default',
    size: 'sm',
    'aria-label': t(`issue.${direction}`),
    ...(direction === 'previous' ? { leftSection: icon } : { rightSection: icon }),
    children: <Box visibleFrom="xs">{t(`issue.${direction}Short`)}</Box>,
  } as const;
  return to ? <Button component={Link} to={to} state={state} {...props} /> : <Button disabled {...props} />;
}
