/**
 * An issue's triage fields as small chips (issue 23): status, priority, assignee avatar and labels. Used by
 * the list's rows; the board's cards can use them too. Colour is never the only signal: every chip carries
 * its name as text (the avatar as accessible text and a tooltip).
 */
import { Avatar, Badge, Tooltip } from '@mantine/core';
import { IconFlag } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { IssueStatus, Label, Priority } from '#contracts/triage';
import {
  initials,
  labelTextColor,
  type Person,
  personName,
  priorityColor,
  statusColor,
} from './triage-model';

export function StatusChip({ status }: { status: IssueStatus }) {
  const { t } = useTranslation();
  return (
    <Badge variant="light" color={statusColor[status]} radius="sm" data-testid="status-chip">
      {t(`triage.status.${status}`)}
    </Badge>
  );
}

/** No chip for "no priority": most issues have none, and an empty chip per row is noise. */
export function PriorityChip({ priority }: { priority: Priority }) {
  const { t } = useTranslation();
  if (priority === 'none') return null;
  return (
    <Badge
      variant="outline"
      color={priorityColor[priority]}
      radius="sm"
      leftSection={<IconFlag size={12} aria-hidden />}
      data-testid="priority-chip"
    >
      {t(`triage.priority.${priority}`)}
    </Badge>
  );
}

export function LabelChip({ label }: { label: Label }) {
  return (
    <Badge
      radius="xl"
      style={{ background: label.color, color: labelTextColor(label.color), textTransform: 'none' }}
      data-testid="label-chip"
    >
      {label.name}
    </Badge>
  );
}

/**
 * The assignee's initials in a circle, the name as its accessible text. A former member (no longer in the
 * team answer) shows as "?" with a generic name until the server unassigns them.
 */
export function AssigneeAvatar({ person, size = 26 }: { person: Person | null; size?: number }) {
  const { t } = useTranslation();
  const name = person ? personName(person) : t('triageList.formerMember');
  const label = t('triageList.assignedTo', { name });
  return (
    <Tooltip label={label} withArrow>
      <Avatar
        size={size}
        radius="xl"
        color="brand"
        role="img"
        aria-label={label}
        data-testid="assignee-avatar"
      >
        {person ? initials(person) : '?'}
      </Avatar>
    </Tooltip>
  );
}
