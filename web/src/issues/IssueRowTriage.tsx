/**
 * A list row's triage line (issue 23): status, priority, labels and the due date under the title; on phones
 * the assignee's avatar too (wider screens give it a column).
 */
import { Badge, Box, Group } from '@mantine/core';
import { IconCalendar } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { IssueRow } from '#contracts/review';
import { isOpenStatus, type Label } from '#contracts/triage';
import { displayLocale } from '../i18n';
import { AssigneeAvatar, LabelChip, PriorityChip, StatusChip } from './TriageChips';
import { formatDueDate, isOverdue, type Person } from './triage-model';

export function IssueRowTriage({
  row,
  labels,
  assignee,
}: {
  row: IssueRow;
  labels: ReadonlyMap<string, Label>;
  assignee: Person | null | undefined;
}) {
  return (
    <Group gap={6} wrap="wrap" data-testid="row-triage">
      <StatusChip status={row.status} />
      <PriorityChip priority={row.priority} />
      {row.labels.flatMap((id) => {
        const label = labels.get(id);
        return label ? [<LabelChip key={id} label={label} />] : [];
      })}
      {row.dueDate && <DueChip date={row.dueDate} open={isOpenStatus(row.status)} />}
      <MergeChip row={row} />
      {row.assignee && (
        <Box hiddenFrom="sm">
          <AssigneeAvatar person={assignee ?? null} size={22} />
        </Box>
      )}
    </Group>
  );
}

/** Issue 37: "3 reports" on a primary's row, "Duplicate of #12" on a duplicate's. */
function MergeChip({ row }: { row: IssueRow }) {
  const { t } = useTranslation();
  if (!row.duplicateOf && (row.reports ?? 1) <= 1) return null;
  return (
    <Badge
      variant="light"
      color="blue"
      radius="sm"
      style={{ textTransform: 'none' }}
      data-testid="merge-chip"
    >
      {row.duplicateOf
        ? t('merge.duplicateOf', { n: row.duplicateOf })
        : t('merge.reports', { count: row.reports ?? 1 })}
    </Badge>
  );
}

function DueChip({ date, open }: { date: string; open: boolean }) {
  const { t } = useTranslation();
  const shown = formatDueDate(date, displayLocale());
  const late = open && isOverdue(date, new Date());
  return (
    <Badge
      variant={late ? 'light' : 'default'}
      color={late ? 'red' : undefined}
      radius="sm"
      leftSection={<IconCalendar size={12} aria-hidden />}
      style={{ textTransform: 'none' }}
      data-testid="due-chip"
    >
      {t(late ? 'triageList.overdue' : 'triageList.due', { date: shown })}
    </Badge>
  );
}
