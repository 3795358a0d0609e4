/**
 * An issue header's triage fields (issue 23, docs/data-model.md 4.13). Issues filed before triage existed
 * carry none of them: they read as what they were, new (or resolved, by SPEC's `deleted`), no priority,
 * nobody, no labels, no due date, last updated when created.
 */
import {
  type IssueStatus,
  issueStatuses,
  type Priority,
  priorities,
  type TriageFields,
} from '#contracts/triage';

type Item = Record<string, unknown>;

const oneOf = <T extends string>(values: readonly T[], v: unknown, fallback: T): T =>
  values.includes(v as T) ? (v as T) : fallback;

/** The triage fields of a header item; `liveLabels` drops the ids of labels deleted since. */
export function triageFieldsOf(h: Item, liveLabels?: ReadonlySet<string>): TriageFields {
  const resolved = Number(h.deleted ?? 0) === 1;
  const status: IssueStatus = oneOf(issueStatuses, h.status, resolved ? 'resolved' : 'new');
  const labels = Array.isArray(h.labels) ? h.labels.map(String) : [];
  return {
    status,
    priority: oneOf<Priority>(priorities, h.priority, 'none'),
    assignee: typeof h.assignee === 'string' && h.assignee ? h.assignee : null,
    labels: liveLabels ? labels.filter((id) => liveLabels.has(id)) : labels,
    dueDate: typeof h.dueDate === 'string' && h.dueDate ? h.dueDate : null,
    updatedAt: String(h.updatedAt ?? h.createdAt ?? ''),
  };
}
