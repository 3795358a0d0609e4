/**
 * The triage fields as text, for a role that may not change them (a GUEST): readable values rather than
 * greyed-out controls, which would be hard to read and offer nothing to do.
 */
import { Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { IssueAnswer } from '#contracts/review';
import type { Label } from '#contracts/triage';
import type { TeamPerson } from './detail-model';
import { fullName } from './detail-model';
import { LabelChip } from './TriageChips';

export function TriageSummary({
  issue,
  labels,
  people,
  locale,
}: {
  issue: IssueAnswer;
  labels: Label[];
  people: TeamPerson[];
  locale: string;
}) {
  const { t } = useTranslation();
  const assignee = issue.assignee ? people.find((p) => p.userId === issue.assignee) : undefined;
  const chosen = labels.filter((l) => issue.labels.includes(l.id));
  const rows: [string, React.ReactNode][] = [
    [t('triageDetail.panel.statusField'), t(`triage.status.${issue.status}`)],
    [t('triageDetail.panel.priorityField'), t(`triage.priority.${issue.priority}`)],
    [
      t('triageDetail.panel.assigneeField'),
      issue.assignee
        ? assignee
          ? fullName(assignee)
          : t('triageDetail.panel.formerMember')
        : t('triageDetail.panel.unassigned'),
    ],
    [
      t('triageDetail.panel.labelsField'),
      chosen.length ? (
        <Group key="labels" gap={6}>
          {chosen.map((l) => (
            <LabelChip key={l.id} label={l} />
          ))}
        </Group>
      ) : (
        '—'
      ),
    ],
    [
      t('triageDetail.panel.dueField'),
      issue.dueDate
        ? new Date(`${issue.dueDate}T00:00:00`).toLocaleDateString(locale, { dateStyle: 'medium' })
        : '—',
    ],
  ];
  return (
    <Stack component="dl" gap="sm" m={0} data-testid="triage-summary">
      {rows.map(([label, value]) => (
        <Stack key={label} gap={2}>
          <Text component="dt" size="sm" fw={600}>
            {label}
          </Text>
          <Text component="dd" size="sm" m={0}>
            {value}
          </Text>
        </Stack>
      ))}
    </Stack>
  );
}
