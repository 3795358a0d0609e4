/**
 * Triage (issue 23): the fields a team sorts issues by (status, priority, assignee, labels, due date), the
 * project's labels, comments, the activity timeline and the members' notification settings. One place for
 * each rule: the API validates with these schemas and the dashboard builds its forms and chips from them.
 * docs/data-model.md 4.13 says how they are stored and listed.
 */
import * as z from 'zod';
import { issueListQuerySchema, nameText } from './schemas';
import { cleanText, hasForbidden, visibleChar } from './text';
import { dateRangeRule } from './validation';

/** SPEC's `deleted` is 1 exactly for the last two (the Resolved list); the first three are the New list. */
export const issueStatuses = ['new', 'in_progress', 'in_review', 'resolved', 'closed'] as const;
export type IssueStatus = (typeof issueStatuses)[number];
/** A stored or sent value that is one of the statuses (items and events are read as unknown). */
export const isIssueStatus = (v: unknown): v is IssueStatus =>
  (issueStatuses as readonly unknown[]).includes(v);
export const openStatuses = ['new', 'in_progress', 'in_review'] as const satisfies readonly IssueStatus[];
export const isOpenStatus = (s: IssueStatus) => (openStatuses as readonly IssueStatus[]).includes(s);

/** Lowest first; the `priority` sort shows the highest first. */
export const priorities = ['none', 'low', 'medium', 'high', 'urgent'] as const;
export type Priority = (typeof priorities)[number];

export const listSorts = ['newest', 'oldest', 'priority', 'updated'] as const;
export type ListSort = (typeof listSorts)[number];
/** The issue list's sorts (issue 37): the export's and `reports`, the most reports first. */
export const issueListSorts = [...listSorts, 'reports'] as const;
export type IssueListSort = (typeof issueListSorts)[number];

export const triageLimits = {
  labelsPerIssue: 10,
  labelsPerProject: 50,
  labelNameMax: 30,
  bulkTickets: 100,
  commentMax: 5000,
  commentsPerPage: 50,
} as const;

/** A label's id: server-made, short, lowercase base-36 (so it fits in keys and URLs as it is). */
export const labelIdParam = z.string().regex(/^[a-z0-9]{8,16}$/);
export const labelColorSchema = z.string().regex(/^#[0-9a-fA-F]{6}$/);
export const labelSchema = z.strictObject({
  name: nameText(triageLimits.labelNameMax),
  color: labelColorSchema,
});
export const labelUpdateSchema = labelSchema
  .partial()
  .refine((v) => v.name !== undefined || v.color !== undefined, { message: 'empty' });
export interface Label {
  id: string;
  name: string;
  color: string;
}
/** GET|POST|PATCH …/labels: `msg: {labels}` for the list, `msg: {label}` for one. */
export interface LabelsAnswer {
  labels: Label[];
}
export interface LabelAnswer {
  label: Label;
}

/**
 * The years a due date may fall in (decision Tr-C13): a typo or a half-typed year (`0202-12-15` while
 * typing 2026) is refused instead of stored. The dashboard's date field offers the same range.
 */
export const dueDateYears = { min: 2000, max: 2100 } as const;
/** The first and last day of `dueDateYears`: the server's refusal and the date field's min/max name them. */
export const dueDateRange = { min: `${dueDateYears.min}-01-01`, max: `${dueDateYears.max}-12-31` } as const;
/** Whether a YYYY-MM-DD date lies in `dueDateYears` (compared as text: the format is fixed-width). */
export const isPlausibleDueDate = (v: string) => v >= dueDateRange.min && v <= dueDateRange.max;
/** A calendar date (YYYY-MM-DD, the team's own day, no time zone) in `dueDateYears`, or null to clear it. */
export const dueDateSchema = z.iso
  .date()
  .refine(isPlausibleDueDate, dateRangeRule(dueDateRange.min, dueDateRange.max))
  .nullable();
const ticketNumber = z.number().int().min(1).max(9_999_999_999);
const labelIds = z.array(labelIdParam).max(triageLimits.labelsPerIssue);

/**
 * PATCH client/website/{id}/request/{ticketId}: any of the triage fields, or SPEC's `restore` (false →
 * resolved, true → new). At least one key.
 */
export const issuePatchSchema = z
  .strictObject({
    restore: z.boolean().optional(),
    status: z.enum(issueStatuses).optional(),
    priority: z.enum(priorities).optional(),
    /** A member's user id, or null to unassign. */
    assignee: z.uuid().nullable().optional(),
    /** The issue's whole label set (ids of the project's labels). */
    labels: labelIds.optional(),
    /**
     * Labels to add to and remove from the issue's set as it is when the change commits (decision Tr-C14):
     * a teammate's label added meanwhile stays. Not with `labels`; no id in both.
     */
    addLabels: labelIds.optional().meta({
      description:
        "Label ids to add to the issue's labels as stored (others' additions stay); not with `labels`",
    }),
    removeLabels: labelIds.optional().meta({
      description: "Label ids to remove from the issue's labels as stored; not with `labels`",
    }),
    dueDate: dueDateSchema.optional().meta({
      description: `YYYY-MM-DD in the years ${dueDateYears.min}–${dueDateYears.max}, or null to clear it`,
    }),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), { message: 'empty' })
  .refine((v) => v.labels === undefined || (v.addLabels === undefined && v.removeLabels === undefined), {
    message: 'labels with addLabels/removeLabels',
    path: ['labels'],
  })
  .refine((v) => !v.addLabels?.some((id) => v.removeLabels?.includes(id)), {
    message: 'added and removed',
    path: ['removeLabels'],
  });
export type IssuePatch = z.infer<typeof issuePatchSchema>;

/** PATCH client/website/{id}/requests: one change applied to up to 100 issues, each atomically. */
export const bulkPatchSchema = z.strictObject({
  tickets: z.array(ticketNumber).min(1).max(triageLimits.bulkTickets),
  set: z
    .strictObject({
      status: z.enum(issueStatuses).optional(),
      priority: z.enum(priorities).optional(),
      assignee: z.uuid().nullable().optional(),
      labels: z.strictObject({ add: labelIds.optional(), remove: labelIds.optional() }).optional(),
    })
    .refine((v) => Object.values(v).some((x) => x !== undefined), { message: 'empty' }),
});
export type BulkPatch = z.infer<typeof bulkPatchSchema>;
export interface BulkAnswer {
  /** The issues the call found (changed or already so); missing numbers are left out. */
  updated: number[];
}

/**
 * The list's triage filters and sort (GET client/website/{id}/request and requests.csv), beside SPEC's
 * `page`, `search` and `resolved`. The dashboard keeps them in its URL, so a link shares the view.
 */
export const listFilterShape = {
  status: z.enum(issueStatuses).optional(),
  priority: z.enum(priorities).optional(),
  /** A member's user id, `me` (the caller) or `none` (unassigned). */
  assignee: z.union([z.uuid(), z.enum(['me', 'none'])]).optional(),
  label: labelIdParam.optional(),
  sort: z.enum(listSorts).optional(),
};
/**
 * GET client/website/{id}/request's whole query: SPEC's (schemas.ts `issueListQuerySchema`) and the triage
 * filters. Composed here, not in schemas.ts, because this module already imports that one.
 */
export const listQuerySchema = issueListQuerySchema.extend(listFilterShape).extend({
  // Issue 37 (the list, v1 and the CSV export): `reports` sorts the most reports first, and
  // `collapse=1` leaves duplicates out (their primary's row counts them).
  sort: z.enum(issueListSorts).optional(),
  collapse: z.enum(['0', '1', 'true', 'false']).optional(),
});

/**
 * GET client/website/{id}/requests.csv: the list's query without `page` (the export is every page) and without
 * the sync list's `integration`; `resolved` picks the list, the filters and the sort as the list takes them.
 */
export const exportQuerySchema = issueListQuerySchema
  .omit({ page: true, integration: true })
  .extend(listFilterShape)
  .extend({
    // Issue 37: the export honours the list's `reports` sort and `collapse=1` as the list does.
    sort: z.enum(issueListSorts).optional(),
    collapse: z.enum(['0', '1', 'true', 'false']).optional(),
  });
export type ExportQuery = z.infer<typeof exportQuerySchema>;

/** What one export may hold (docs/api.md "CSV export"): what one request can read and write in time. */
export const exportLimits = { maxRows: 50_000 } as const;

/** The triage fields of an issue, in the list rows and the detail answer. */
export interface TriageFields {
  status: IssueStatus;
  priority: Priority;
  /** A member's user id, or null. */
  assignee: string | null;
  /** Label ids of the project's live labels. */
  labels: string[];
  dueDate: string | null;
  /** ISO time of the last triage change or comment (the `updated` sort); the creation time before any. */
  updatedAt: string;
}

export const commentVisibilities = ['internal', 'public'] as const;
export type CommentVisibility = (typeof commentVisibilities)[number];

/** Plain text: line breaks kept, nothing invisible or text-reordering, not all blank. */
const commentBody = z
  .string()
  // What a client reads in the OpenAPI document: the limit the pipe below enforces on the cleaned text.
  .meta({ minLength: 1, maxLength: triageLimits.commentMax })
  .transform((v) => v.normalize('NFC').replace(/\r\n?/g, '\n').trim())
  .pipe(
    z
      .string()
      .min(1)
      .max(triageLimits.commentMax)
      .refine((v) => !hasForbidden(v, true) && visibleChar.test(v)),
  );
/**
 * A comment written elsewhere (a tracker's, arriving through the sync) as a member's comment may be: the
 * one text rule (text.ts `cleanText`, multi-line) removes the control, bidi and invisible characters that
 * `commentBody` refuses, and cuts to its length; '' when nothing visible remains (nothing to store).
 */
export function trackerCommentText(raw: string): string {
  const text = cleanText(raw, { multiline: true, max: triageLimits.commentMax });
  return visibleChar.test(text) ? text : '';
}
export const commentSchema = z.strictObject({
  body: commentBody,
  visibility: z.enum(commentVisibilities),
});
export const commentUpdateSchema = z.strictObject({ body: commentBody });
/** A comment or activity id: time-ordered (`functions/issues/timeline.ts`). */
export const timelineIdParam = z.string().regex(/^[0-9a-z]{20}$/);

export const actorKinds = ['member', 'reporter', 'system', 'token', 'tracker'] as const;

/**
 * Who did something: a member (name as it was then), the reporter (next issue), the system, an API token,
 * or a person on a linked tracker (two-way sync, issue 24: `name` reads "<name> on GitLab", `vendor` says
 * which integration it came from, so it is never sent back there, and `url` links the tracker's issue).
 * A token's change is its creator's (`name`, as it was when the token was made) "via API token <token>"
 * (issue 25, decision API-13); a token made before the creator's name was stored has only `name: "API token
 * <token>"` and no `token`. The one shape of an actor: stored activity and comments, the issue-event queue
 * message (input, so bounded), v1's answers and the webhook payload all use it.
 */
export const actorSchema = z
  .object({
    kind: z.enum(actorKinds),
    /** Kind member: the user id; kind token: the token's id; kind tracker: the tracker's user id. */
    id: z.string().max(100).optional(),
    name: z.string().max(200),
    /** Kind token: the token's name ("via API token <token>"); absent on tokens made before it was kept. */
    token: z.string().max(100).optional(),
    /** Kind tracker: the integration the change came from. */
    vendor: z.string().max(20).optional(),
    /** Kind tracker: the tracker issue's address. */
    url: z.string().max(2000).optional(),
    /**
     * Kind member: the member acted through the browser extension (issue 34: "<name> via extension"), as
     * `token` names the API token of a token's change.
     */
    via: z.enum(['extension']).optional(),
  })
  .meta({ title: 'Actor' });
export type Actor = z.output<typeof actorSchema>;

/**
 * What a member's comments and changes are signed with once they left or were removed from the team
 * (decision DR-8, issues/data-requests.ts): the team keeps the work, not the person's name or account id. The dashboard shows it
 * in the reader's language.
 */
export const FORMER_MEMBER = 'former member';

/**
 * How an issue came in when not through the widget (issue 34): `extension` a member with the browser
 * extension (`name` theirs), `token` a team's API token (`name` its creator as then, `token` its name).
 * The dashboard shows it beside the reporter ("Ada via extension", "Ada via API token CI").
 */
export const filedViaSchema = z
  .object({
    kind: z.enum(['extension', 'token']),
    name: z.string(),
    token: z.string().nullable(),
  })
  .meta({ title: 'FiledVia' });
export type FiledVia = z.output<typeof filedViaSchema>;

export interface CommentView {
  id: string;
  author: Actor;
  body: string;
  visibility: CommentVisibility;
  createdAt: string;
  editedAt: string | null;
  /** User ids of the members the body mentions. */
  mentions: string[];
}
/** POST and PATCH …/comments: the comment as stored. */
export interface CommentAnswer {
  comment: CommentView;
}
/** DELETE …/comments/{commentId}: the id of the comment removed. */
export interface CommentDeletedAnswer {
  deleted: string;
}

export const activityKinds = [
  'created',
  'status',
  'priority',
  'assignee',
  'labels',
  'dueDate',
  'closed',
  'restored',
  'comment.deleted',
  'delivered',
  'delivery.failed',
  // Merging (issue 37): on the duplicate `merged`/`unmerged` with the primary's number in `to`/`from`; on the
  // primary `duplicate.added`/`duplicate.removed` with the duplicate's number in `to`/`from`.
  'merged',
  'unmerged',
  'duplicate.added',
  'duplicate.removed',
  // The project rule linkExactMatches (docs/similar.md): `to` the other issue, `reason` why; never a merge.
  'linked',
  // A duplicate following its primary's resolution (docs/similar.md "Following the primary"), by the system:
  // `followed` when it was resolved with the primary (`to` the primary's number, `from` the status it had);
  // `unfollowed` when it went back to that status (`from` the primary's number, `to` the status).
  'followed',
  'unfollowed',
] as const;
export type ActivityKind = (typeof activityKinds)[number];

export interface ActivityView {
  id: string;
  kind: ActivityKind;
  actor: Actor;
  at: string;
  /** The field's value before and after (kind status…dueDate); the integration (delivered, delivery.failed). */
  from?: unknown;
  to?: unknown;
  integration?: string;
  reason?: string;
  /**
   * Set on entries only the team sees (never a GUEST): the deletion of an internal comment, and the
   * integrations' deliveries (a GUEST sees no integrations).
   */
  internal?: true;
}

/** One entry of the issue's timeline: comments interleaved with activity, oldest first. */
export type TimelineEntry = ({ type: 'comment' } & CommentView) | ({ type: 'activity' } & ActivityView);
/** GET …/comments and …/activity: a page, oldest first, and the cursor of the next one (null at the end). */
export interface TimelinePage<T> {
  entries: T[];
  next: string | null;
}
export const timelineQuerySchema = z.object({
  cursor: timelineIdParam.optional(),
  limit: z.coerce.number().int().min(1).max(100).default(triageLimits.commentsPerPage),
});

/** A member's mails (`/profile/edit`), kept on the account, for every team it works in. */
export const newIssueMails = ['off', 'instant', 'daily'] as const;
export const notificationSettingsSchema = z.strictObject({
  newIssue: z.enum(newIssueMails),
  assigned: z.boolean(),
  mentioned: z.boolean(),
  /** Comments on issues assigned to me. */
  comments: z.boolean(),
});
export type NotificationSettings = z.infer<typeof notificationSettingsSchema>;
/**
 * What a member gets before changing anything (decision Tr-N1): mails about their own work; new reports
 * only when asked for, since the email integration already mails them to whoever the project names.
 */
export const defaultNotificationSettings: NotificationSettings = {
  newIssue: 'off',
  assigned: true,
  mentioned: true,
  comments: true,
};
/** What one unsubscribe link turns off: one setting each (`newIssue` to 'off', the others to false). */
export const notificationKinds = [
  'newIssue',
  'assigned',
  'mentioned',
  'comments',
] as const satisfies readonly (keyof NotificationSettings)[];
export type NotificationKind = (typeof notificationKinds)[number];
/** GET /api/notifications/unsubscribe: the signed token of a mail's link (decision Tr-N5). */
export const unsubscribeQuerySchema = z.object({ token: z.string().min(1).max(200) });

/** The webhook integration's events (DESIGN section 8 `event`); `issue.created` alone before issue 23. */
export const webhookEvents = [
  'issue.created',
  'issue.updated',
  'comment.created',
  // Issue 37: a report merged into another as its duplicate, and taken out again (docs/webhooks.md).
  'issue.merged',
  'issue.unmerged',
] as const;
export type WebhookEvent = (typeof webhookEvents)[number];

/**
 * What happened that a member may want a mail about. The change writes it to the notification outbox in its
 * own transaction (`functions/issues/notify.ts` `notifyPut`); the outbox's flush decides who gets what from
 * their settings and sends one mail per person per flush, so a bulk action of 100 issues is one mail.
 */
export type NotifyEvent =
  | { kind: 'new'; projectId: string; number: number }
  | { kind: 'assigned'; projectId: string; number: number; to: string; by: Actor }
  | { kind: 'mentioned'; projectId: string; number: number; to: string[]; by: Actor; commentId: string }
  | {
      kind: 'comment';
      projectId: string;
      number: number;
      /**
       * The issue's assignee, who gets it when their settings say so (never for their own comment); '' for
       * a reporter's reply on an unassigned issue, which the team's owners and admins get instead.
       */
      assignee: string;
      by: Actor;
      commentId: string;
      visibility: CommentVisibility;
    };
