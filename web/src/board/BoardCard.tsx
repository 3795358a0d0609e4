/**
 * One issue on the board: number, title, priority, the assignee's initials (their name as text for screen
 * readers and as a tooltip) and label chips. The title opens the issue (remembering the board for "back").
 * A role that may triage drags the card, or moves it with the "Move to…" menu or Alt+Arrow keys.
 */
import { ActionIcon, Anchor, Group, Menu, Paper, Text } from '@mantine/core';
import { IconDots } from '@tabler/icons-react';
import { type KeyboardEvent, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { Label } from '#contracts/triage';
import { issueStatuses } from '#contracts/triage';
import type { FromList } from '../issues/model';
import { AssigneeAvatar, LabelChip, PriorityChip } from '../issues/TriageChips';
import type { Person } from '../issues/triage-model';
import { paths } from '../paths';
import { type BoardCard as Card, neighbourStatus } from './model';

export interface CardContext {
  projectId: string;
  /** The board's address with its filters (for "back" from the issue). */
  from: string;
  members: ReadonlyMap<string, Person>;
  labels: ReadonlyMap<string, Label>;
  /** Null for a role that may not triage (a GUEST): no drag, no menu. */
  onMove: ((card: Card, to: Card['status'], byKeyboard: boolean) => void) | null;
  onDragStart: (card: Card) => void;
  onDragEnd: () => void;
}

export function BoardCard({
  card,
  context,
  focus,
  onFocused,
}: {
  card: Card;
  context: CardContext;
  focus: boolean;
  onFocused: () => void;
}) {
  const { t } = useTranslation();
  const link = useRef<HTMLAnchorElement>(null);
  const { onMove } = context;
  const state: FromList = { from: context.from };
  const labels = card.labels.flatMap((id) => context.labels.get(id) ?? []);

  // After a keyboard move the card is drawn anew in its new column: focus follows it there.
  useEffect(() => {
    if (!focus) return;
    link.current?.focus();
    onFocused();
  }, [focus, onFocused]);

  function onKeyDown(event: KeyboardEvent) {
    if (!onMove || !event.altKey || (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight')) return;
    const to = neighbourStatus(card.status, event.key === 'ArrowLeft' ? -1 : 1);
    event.preventDefault();
    if (to) onMove(card, to, true);
  }

  return (
    <Paper
      component="li"
      withBorder
      radius="md"
      p="sm"
      data-board-card
      data-testid="board-card"
      data-number={card.number}
      draggable={onMove !== null}
      onDragStart={(event) => {
        event.dataTransfer.effectAllowed = 'move';
        event.dataTransfer.setData('text/plain', `#${card.number}`);
        context.onDragStart(card);
      }}
      onDragEnd={context.onDragEnd}
      onKeyDown={onKeyDown}
      style={{ listStyle: 'none', cursor: onMove ? 'grab' : undefined }}
    >
      <Group justify="space-between" wrap="nowrap" align="flex-start" gap={6}>
        <Anchor
          ref={link}
          component={Link}
          to={paths.ticket(context.projectId, String(card.number))}
          state={state}
          size="sm"
          fw={600}
          c="var(--mantine-color-text)"
          underline="hover"
          aria-keyshortcuts={onMove ? 'Alt+ArrowLeft Alt+ArrowRight' : undefined}
          style={{ overflowWrap: 'anywhere', minWidth: 0 }}
          lineClamp={3}
        >
          <Text span size="sm" c="dimmed" mr={6}>
            #{card.number}
          </Text>
          {card.title}
        </Anchor>
        {onMove && (
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <ActionIcon
                variant="subtle"
                color="gray"
                size="sm"
                aria-label={t('board.moveMenu', { number: card.number })}
              >
                <IconDots size={16} aria-hidden />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Label>{t('board.moveTo')}</Menu.Label>
              {issueStatuses
                .filter((s) => s !== card.status)
                .map((s) => (
                  <Menu.Item key={s} onClick={() => onMove(card, s, true)}>
                    {t(`triage.status.${s}`)}
                  </Menu.Item>
                ))}
            </Menu.Dropdown>
          </Menu>
        )}
      </Group>
      {(card.priority !== 'none' || labels.length > 0 || card.assignee) && (
        <Group justify="space-between" mt={8} gap={6} wrap="nowrap" align="flex-end">
          <Group gap={4} wrap="wrap" style={{ minWidth: 0 }}>
            <PriorityChip priority={card.priority} />
            {labels.map((label) => (
              <LabelChip key={label.id} label={label} />
            ))}
          </Group>
          {card.assignee && <AssigneeAvatar person={context.members.get(card.assignee) ?? null} />}
        </Group>
      )}
    </Paper>
  );
}
