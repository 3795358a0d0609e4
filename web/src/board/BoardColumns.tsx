/**
 * The five status columns side by side: each a labelled region with its count and a list of cards, paged
 * by "Show more". A card dragged onto another column moves there (native HTML5 drag and drop, no library:
 * the keyboard and the "Move to…" menu are the way on touch screens). On a narrow screen the columns
 * scroll sideways, each snapping into view (decision Tr-B3).
 */
import { Badge, Box, Button, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { type DragEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type IssueStatus, issueStatuses } from '#contracts/triage';
import { BoardCard, type CardContext } from './BoardCard';
import { type BoardCard as Card, type Column, hasMore } from './model';
import type { BoardState } from './useBoard';

export function BoardColumns({
  state,
  context,
}: {
  state: BoardState;
  context: Omit<CardContext, 'onDragStart' | 'onDragEnd' | 'onMove'> & { triage: boolean };
}) {
  const dragging = useRef<Card | null>(null);
  const [over, setOver] = useState<IssueStatus | null>(null);
  const cardContext: CardContext = {
    ...context,
    onMove: context.triage ? (card, to, byKeyboard) => void state.move(card, to, byKeyboard) : null,
    onDragStart: (card) => {
      dragging.current = card;
    },
    onDragEnd: () => {
      dragging.current = null;
      setOver(null);
    },
  };
  const dropProps = (status: IssueStatus) => ({
    onDragOver: (event: DragEvent) => {
      if (!dragging.current) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = 'move';
      if (over !== status) setOver(status);
    },
    onDragLeave: (event: DragEvent) => {
      if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOver(null);
    },
    onDrop: (event: DragEvent) => {
      event.preventDefault();
      const card = dragging.current;
      dragging.current = null;
      setOver(null);
      if (card) void state.move(card, status);
    },
  });

  return (
    <Box
      style={{
        display: 'grid',
        gridTemplateColumns: `repeat(${issueStatuses.length}, minmax(12rem, 1fr))`,
        gap: 'var(--mantine-spacing-sm)',
        overflowX: 'auto',
        scrollSnapType: 'x mandatory',
        paddingBottom: 'var(--mantine-spacing-xs)',
      }}
    >
      {issueStatuses.map((status) => (
        <BoardColumn
          key={status}
          status={status}
          column={state.board[status]}
          over={over === status}
          dropProps={dropProps(status)}
          onMore={() => state.loadMore(status)}
          onRetry={() => state.retry(status)}
        >
          {state.board[status].cards.map((card) => (
            <BoardCard
              key={card.number}
              card={card}
              context={cardContext}
              focus={state.focusNumber === card.number}
              onFocused={state.focused}
            />
          ))}
        </BoardColumn>
      ))}
    </Box>
  );
}

function BoardColumn({
  status,
  column,
  over,
  dropProps,
  onMore,
  onRetry,
  children,
}: {
  status: IssueStatus;
  column: Column;
  over: boolean;
  dropProps: Record<string, (event: DragEvent) => void>;
  onMore: () => void;
  onRetry: () => void;
  children: React.ReactNode;
}) {
  const { t } = useTranslation();
  const name = t(`triage.status.${status}`);
  return (
    <Box
      component="section"
      // The count is part of the region's name ("New, 3 issues"), so it is heard on entering the column.
      aria-label={t('board.column', { column: name, count: column.total })}
      data-testid={`board-column-${status}`}
      {...dropProps}
      style={{
        scrollSnapAlign: 'start',
        background: over ? 'var(--mantine-color-brand-0)' : 'var(--mantine-color-gray-0)',
        border: `1px ${over ? 'dashed var(--mantine-color-brand-6)' : 'solid var(--mantine-color-gray-3)'}`,
        borderRadius: 'var(--mantine-radius-lg)',
        padding: 'var(--mantine-spacing-sm)',
        minHeight: '12rem',
      }}
    >
      <Group justify="space-between" wrap="nowrap" mb="sm">
        <Title order={2} size="h5">
          {name}
        </Title>
        <Badge variant="light" color="gray" data-testid="column-count" aria-hidden>
          {column.total}
        </Badge>
      </Group>
      <Stack component="ul" gap="xs" p={0} m={0} aria-label={name}>
        {children}
      </Stack>
      {!column.loading && !column.failed && column.total === 0 && (
        <Text size="sm" c="dimmed" ta="center" py="md">
          {t('board.empty')}
        </Text>
      )}
      {column.loading && (
        <Group justify="center" py="sm">
          <Loader size="sm" aria-label={t('app.loading')} />
        </Group>
      )}
      {column.failed && (
        <Stack gap={4} align="center" py="sm">
          <Text size="sm" c="red">
            {t('board.loadFailed')}
          </Text>
          <Button size="xs" variant="default" onClick={onRetry}>
            {t('board.retry')}
          </Button>
        </Stack>
      )}
      {!column.loading && !column.failed && hasMore(column) && (
        <Button
          fullWidth
          mt="xs"
          size="xs"
          variant="default"
          onClick={onMore}
          aria-label={t('board.moreIn', { column: name, count: column.total - column.cards.length })}
        >
          {t('board.more')}
        </Button>
      )}
    </Box>
  );
}
