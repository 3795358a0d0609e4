/**
 * The issue's side panel (issue 23): status, priority, assignee, labels and due date, each saved at once
 * with its own saved or failed state under it. A GUEST sees the values with a note why it cannot change
 * them (the server refuses it too).
 */
import {
  ActionIcon,
  Anchor,
  Group,
  MultiSelect,
  NativeSelect,
  Pill,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { IssueAnswer } from '#contracts/review';
import { issueStatuses, type Label, priorities, triageLimits } from '#contracts/triage';
import { paths } from '../app/paths';
import { FieldState } from '../components/FieldState';
import { Section } from '../components/Section';
import { can, type Role } from '../teams/model';
import { fullName } from './detail-model';
import { TriageSummary } from './TriageSummary';
import type { TeamPerson } from './triage-api';
import { assignableMembers, labelTextColor } from './triage-model';
import { useFieldSaves } from './useFieldSaves';

const isDate = (v: string) => /^\d{4}-\d{2}-\d{2}$/.test(v);

export function TriagePanel({
  projectId,
  issue,
  labels,
  people,
  role,
  locale,
}: {
  projectId: string;
  issue: IssueAnswer;
  labels: Label[];
  people: TeamPerson[];
  role: Role;
  locale: string;
}) {
  const { t } = useTranslation();
  const { states, save } = useFieldSaves(projectId, issue.number);
  const edit = can(role, 'triage');
  const [due, setDue] = useState(issue.dueDate ?? '');
  useEffect(() => setDue(issue.dueDate ?? ''), [issue.dueDate]);
  // Assignable: members who may triage (no GUEST). A former member still assigned stays shown as such.
  const assignable = assignableMembers(people);
  const current = issue.assignee;
  const assigneeData = [
    { value: '', label: t('triageDetail.panel.unassigned') },
    ...assignable.map((p) => ({ value: p.userId, label: fullName(p) })),
    ...(current && !assignable.some((p) => p.userId === current)
      ? [{ value: current, label: nameOf(people, current) ?? t('triageDetail.panel.formerMember') }]
      : []),
  ];
  const chosen = labels.filter((l) => issue.labels.includes(l.id));

  if (!edit)
    return (
      <Section
        title={t('triageDetail.panel.title')}
        labelId="issue-triage"
        description={t('triageDetail.panel.guest')}
      >
        <TriageSummary issue={issue} labels={labels} people={people} locale={locale} />
      </Section>
    );

  return (
    <Section title={t('triageDetail.panel.title')} labelId="issue-triage">
      <Stack gap="xs" data-testid="triage-panel">
        <Field id="status" states={states}>
          <NativeSelect
            label={t('triageDetail.panel.statusField')}
            value={issue.status}
            data={issueStatuses.map((s) => ({ value: s, label: t(`triage.status.${s}`) }))}
            onChange={(e) => void save('status', { status: e.currentTarget.value as IssueAnswer['status'] })}
            aria-describedby="triage-status-state"
          />
        </Field>
        <Field id="priority" states={states}>
          <NativeSelect
            label={t('triageDetail.panel.priorityField')}
            value={issue.priority}
            data={priorities.map((p) => ({ value: p, label: t(`triage.priority.${p}`) }))}
            onChange={(e) =>
              void save('priority', { priority: e.currentTarget.value as IssueAnswer['priority'] })
            }
            aria-describedby="triage-priority-state"
          />
        </Field>
        <Field id="assignee" states={states}>
          <NativeSelect
            label={t('triageDetail.panel.assigneeField')}
            value={current ?? ''}
            data={assigneeData}
            onChange={(e) => void save('assignee', { assignee: e.currentTarget.value || null })}
            aria-describedby="triage-assignee-state"
          />
        </Field>
        <Field id="labels" states={states}>
          <MultiSelect
            label={t('triageDetail.panel.labelsField')}
            description={
              labels.length
                ? t('triageDetail.panel.labelsHint', { max: triageLimits.labelsPerIssue })
                : undefined
            }
            placeholder={chosen.length ? undefined : t('triageDetail.panel.labelsPick')}
            data={labels.map((l) => ({ value: l.id, label: l.name }))}
            value={chosen.map((l) => l.id)}
            maxValues={triageLimits.labelsPerIssue}
            disabled={labels.length === 0}
            onChange={(ids) => void save('labels', { labels: ids })}
            renderPill={({ option, onRemove }) => {
              const color = labels.find((l) => l.id === option.value)?.color ?? '#ced4da';
              return (
                <Pill
                  withRemoveButton
                  onRemove={onRemove}
                  removeButtonProps={{
                    'aria-label': t('triageDetail.panel.removeLabel', { name: option.label }),
                  }}
                  styles={{ root: { backgroundColor: color, color: labelTextColor(color) } }}
                >
                  {option.label}
                </Pill>
              );
            }}
            aria-describedby="triage-labels-state"
          />
          {labels.length === 0 && <NoLabels projectId={projectId} role={role} />}
        </Field>
        <Field id="dueDate" states={states}>
          <Group gap={4} align="flex-end" wrap="nowrap">
            <TextInput
              type="date"
              label={t('triageDetail.panel.dueField')}
              value={due}
              style={{ flex: 1 }}
              onChange={(e) => {
                const v = e.currentTarget.value;
                setDue(v);
                // A complete date saves; an emptied field saves on leaving it or by the clear button.
                if (isDate(v) && v !== issue.dueDate) void save('dueDate', { dueDate: v });
              }}
              onBlur={() => {
                if (!due && issue.dueDate) void save('dueDate', { dueDate: null });
              }}
              aria-describedby="triage-dueDate-state"
            />
            {issue.dueDate && (
              <ActionIcon
                variant="default"
                size="lg"
                aria-label={t('triageDetail.panel.dueClear')}
                onClick={() => {
                  setDue('');
                  void save('dueDate', { dueDate: null });
                }}
              >
                <IconX size={16} aria-hidden />
              </ActionIcon>
            )}
          </Group>
        </Field>
      </Stack>
    </Section>
  );
}

function Field({
  id,
  states,
  children,
}: {
  id: string;
  states: ReturnType<typeof useFieldSaves>['states'];
  children: React.ReactNode;
}) {
  return (
    <Stack gap={4}>
      {children}
      <FieldState id={`triage-${id}-state`} save={states[id as keyof typeof states]} />
    </Stack>
  );
}

function NoLabels({ projectId, role }: { projectId: string; role: Role }) {
  const { t } = useTranslation();
  return (
    <Text size="sm" c="dimmed">
      {t('triageDetail.panel.noLabels')}{' '}
      {can(role, 'settings') && (
        <Anchor component={Link} to={paths.configuration(projectId, 'labels')} size="sm">
          {t('triageDetail.panel.manageLabels')}
        </Anchor>
      )}
    </Text>
  );
}

const nameOf = (people: TeamPerson[], id: string) => {
  const p = people.find((x) => x.userId === id);
  return p ? fullName(p) : null;
};
