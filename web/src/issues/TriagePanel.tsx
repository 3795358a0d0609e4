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
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { IssueAnswer } from '#contracts/review';
import {
  dueDateRange,
  dueDateYears,
  isPlausibleDueDate,
  issueStatuses,
  type Label,
  priorities,
  triageLimits,
} from '#contracts/triage';
import { FieldState } from '../components/FieldState';
import { Section } from '../components/Section';
import { paths } from '../paths';
import { can, type Role } from '../teams/model';
import type { TeamPerson } from './detail-model';
import { fullName } from './detail-model';
import { TriageSummary } from './TriageSummary';
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
  const labelsField = useRef<HTMLInputElement>(null);

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
            onChange={(ids) => {
              // Only what this pick changed: a teammate's label added meanwhile stays (decision Tr-C14).
              const shown = chosen.map((l) => l.id);
              const addLabels = ids.filter((id) => !shown.includes(id));
              const removeLabels = shown.filter((id) => !ids.includes(id));
              if (addLabels.length || removeLabels.length)
                void save('labels', {
                  ...(addLabels.length ? { addLabels } : {}),
                  ...(removeLabels.length ? { removeLabels } : {}),
                });
            }}
            renderPill={({ option, onRemove }) => {
              const color = labels.find((l) => l.id === option.value)?.color ?? '#ced4da';
              return (
                <Pill
                  withRemoveButton
                  onRemove={onRemove}
                  // Mantine hides the remove button from screen readers and the Tab order (Backspace in
                  // the field removes only the last label): each label's own button is reachable here,
                  // and focus returns to the field once the label is gone.
                  removeButtonProps={{
                    'aria-label': t('triageDetail.panel.removeLabel', { name: option.label }),
                    'aria-hidden': false,
                    tabIndex: 0,
                    onClick: () => labelsField.current?.focus(),
                  }}
                  styles={{ root: { backgroundColor: color, color: labelTextColor(color) } }}
                >
                  {option.label}
                </Pill>
              );
            }}
            aria-describedby="triage-labels-state"
            ref={labelsField}
          />
          {labels.length === 0 && <NoLabels projectId={projectId} role={role} />}
        </Field>
        <Field id="dueDate" states={states}>
          <DueDateField value={issue.dueDate} save={save} />
        </Field>
      </Stack>
    </Section>
  );
}

/** How long the due date waits after the last keystroke before it saves (leaving the field saves at once). */
const dueSettleMs = 800;

/**
 * The due date, typed or picked. It saves once: a complete date in `dueDateYears` after typing pauses, or
 * at once on leaving the field or Enter, so a half-typed year (0202 on the way to 2026) is never sent. A
 * teammate's change shows while the field is not being edited.
 */
function DueDateField({
  value,
  save,
}: {
  value: string | null;
  save: ReturnType<typeof useFieldSaves>['save'];
}) {
  const { t } = useTranslation();
  const [due, setDue] = useState(value ?? '');
  const [wrong, setWrong] = useState(false);
  const editing = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  // What was last sent, until the issue reloads with it: leaving the field right after it saved sends nothing.
  const sent = useRef<string | null>(null);
  useEffect(() => {
    sent.current = null;
    if (!editing.current) setDue(value ?? '');
  }, [value]);
  useEffect(() => () => clearTimeout(timer.current), []);
  const send = (v: string) => {
    sent.current = v;
    void save('dueDate', { dueDate: v || null });
  };
  const commit = (v: string, leaving: boolean) => {
    clearTimeout(timer.current);
    if (v === (value ?? '') || v === sent.current) return setWrong(false);
    if (!v) {
      // An emptied field clears the date only on leaving it (Chromium empties it while a part is erased).
      if (leaving) send('');
      return;
    }
    const ok = isDate(v) && isPlausibleDueDate(v);
    setWrong(!ok && leaving);
    if (ok) send(v);
  };
  return (
    <Group gap={4} align="flex-end" wrap="nowrap">
      <TextInput
        type="date"
        label={t('triageDetail.panel.dueField')}
        value={due}
        min={dueDateRange.min}
        max={dueDateRange.max}
        style={{ flex: 1 }}
        error={wrong ? t('triageDetail.panel.dueRange', dueDateYears) : undefined}
        errorProps={{ id: 'triage-dueDate-error' }}
        onFocus={() => {
          editing.current = true;
        }}
        onChange={(e) => {
          const v = e.currentTarget.value;
          setDue(v);
          setWrong(false);
          clearTimeout(timer.current);
          if (v && isDate(v) && isPlausibleDueDate(v))
            timer.current = setTimeout(() => commit(v, false), dueSettleMs);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') commit(e.currentTarget.value, true);
        }}
        onBlur={(e) => {
          editing.current = false;
          commit(e.currentTarget.value, true);
        }}
        aria-describedby={`triage-dueDate-state${wrong ? ' triage-dueDate-error' : ''}`}
      />
      {value && (
        <ActionIcon
          variant="default"
          size="lg"
          aria-label={t('triageDetail.panel.dueClear')}
          onClick={() => {
            clearTimeout(timer.current);
            setDue('');
            send('');
          }}
        >
          <IconX size={16} aria-hidden />
        </ActionIcon>
      )}
    </Group>
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
