/**
 * The public REST API, version 1 (issue 25, docs/api.md): the request and answer schemas of every
 * `/api/v1` route. Requests reuse the dashboard's own schemas (the list's filters and sort, the triage
 * patch, comments), so one rule holds in both places; answers are zod schemas too, because the OpenAPI
 * document is generated from them (a unit test refuses a v1 route without one).
 */
import * as z from 'zod';
import { replayStops, reportLimits, screenshotTypes, stepKinds } from './intake';
import { plausibleTimes, reportSchema, uploadKeyField, uploadRequestSchema } from './intake-schemas';
import { integrationNames } from './integration-names';
import { projectIdParam, ticketIdParam, widgetLanguages, widgetPositions } from './schemas';
import { similarLimits, similarReasons } from './similar';
import { roles } from './teams';
import {
  actorSchema,
  commentSchema,
  commentVisibilities,
  filedViaSchema,
  issuePatchSchema,
  issueStatuses,
  listQuerySchema,
  priorities,
  timelineQuerySchema,
} from './triage';

export const V1_PAGE_MAX = 100;
export const V1_PAGE_DEFAULT = 25;
/** How far a cursor may point: the dashboard's last page (100,000 pages of its size) and then some. */
const OFFSET_MAX = 10_000_000;

export const v1ProjectParams = z.object({ projectId: projectIdParam });
export const v1IssueParams = z.object({ projectId: projectIdParam, number: ticketIdParam });

/**
 * The cursor is opaque to clients: base64url of `o<offset>`. The lists' rank index reads page N at the
 * cost of page 1 from an offset (docs/data-model.md 4.13), so an offset is what a page needs.
 */
export const encodeCursor = (offset: number) => btoa(`o${offset}`).replace(/=+$/, '');
export function decodeCursor(cursor: string): number | null {
  let text: string;
  try {
    text = atob(cursor);
  } catch {
    return null;
  }
  const m = /^o(\d{1,8})$/.exec(text);
  const offset = m ? Number(m[1]) : Number.NaN;
  return Number.isInteger(offset) && offset > 0 && offset <= OFFSET_MAX ? offset : null;
}

/**
 * GET /api/v1/projects/{projectId}/issues: the dashboard list's query (status, priority, assignee, label,
 * sort, search, `resolved` for the resolved list) with `limit` and `cursor` instead of `page`.
 */
export const v1IssueListQuery = listQuerySchema.omit({ page: true, integration: true }).extend({
  limit: z.coerce.number().int().min(1).max(V1_PAGE_MAX).default(V1_PAGE_DEFAULT),
  cursor: z
    .string()
    .max(16)
    .refine((c) => decodeCursor(c) !== null)
    .optional(),
});
export type V1IssueListQuery = z.output<typeof v1IssueListQuery>;

/** PATCH …/issues/{number}: the dashboard's triage patch, the one schema of that rule. */
export const v1IssuePatch = issuePatchSchema.meta({
  examples: [
    { status: 'in_progress', priority: 'high', dueDate: '2026-12-24' },
    { status: 'closed' },
    { addLabels: ['k3x9m2p7q1'], removeLabels: ['b8w4n6t2z5'] },
  ],
});
export const v1CommentQuery = timelineQuerySchema;
export const v1CommentBody = commentSchema.meta({
  examples: [{ body: 'Fixed in release 1.4.2', visibility: 'public' }],
});

// Answers.

const isoTime = z.string().meta({ format: 'date-time' });

export const v1ProjectSchema = z
  .object({
    id: z.uuid(),
    teamId: z.string(),
    name: z.string(),
    url: z.string(),
    domain: z.string(),
    active: z.boolean(),
    openIssues: z.number().int(),
    resolvedIssues: z.number().int(),
    createdAt: isoTime,
  })
  .meta({ title: 'Project' });
export type V1Project = z.output<typeof v1ProjectSchema>;

/**
 * GET /api/v1/projects/{projectId}: the project with what a client needs to triage by name: its labels
 * (an issue's `labels` and the `label` filter take these ids) and the people it may assign (an issue's
 * `assignee` and the `assignee` filter take these user ids). Without them a script written from this
 * document alone could not set a label or an assignee.
 */
export const v1ProjectDetailSchema = v1ProjectSchema
  .extend({
    labels: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        color: z.string().meta({ description: 'The chip colour, #rrggbb' }),
      }),
    ),
    assignees: z
      .array(
        z.object({
          id: z.string().meta({ description: 'The user id an issue names in `assignee`' }),
          name: z.string(),
          role: z.enum(roles),
        }),
      )
      .meta({ description: "The team's members who may triage, so may be assigned" }),
  })
  .meta({ title: 'ProjectDetail' });
export type V1ProjectDetail = z.output<typeof v1ProjectDetailSchema>;

const triageShape = {
  status: z.enum(issueStatuses),
  priority: z.enum(priorities),
  assignee: z.string().nullable().meta({ description: "A team member's user id, or null" }),
  labels: z.array(z.string()).meta({ description: "Ids of the project's labels" }),
  dueDate: z.string().nullable().meta({ description: 'YYYY-MM-DD or null' }),
  updatedAt: isoTime,
};

export const v1IssueSummarySchema = z
  .object({
    number: z.number().int(),
    title: z.string(),
    preview: z.string(),
    resolved: z.boolean(),
    createdAt: isoTime,
    files: z.number().int(),
    screenshots: z.number().int(),
    reports: z.number().int().meta({ description: 'Issue 37: 1 + the duplicates merged into it' }),
    duplicateOf: z.number().int().nullable().meta({ description: 'Issue 37: its primary, or null' }),
    ...triageShape,
  })
  .meta({ title: 'IssueSummary' });
export type V1IssueSummary = z.output<typeof v1IssueSummarySchema>;

export const v1IssuePageSchema = z
  .object({
    issues: z.array(v1IssueSummarySchema),
    total: z.number().int().meta({ description: 'Issues in the list with these filters (see docs/api.md)' }),
    next: z.string().nullable().meta({ description: 'Pass as `cursor` for the next page; null at the end' }),
  })
  .meta({ title: 'IssuePage' });
export type V1IssuePage = z.output<typeof v1IssuePageSchema>;

const signedUrl = z.url().meta({ description: 'A presigned link, valid for 5 minutes' });

/** How far an issue's delivery to one integration got (the dashboard's integration rows). */
export const v1DeliveryStatuses = ['in_progress', 'delivered', 'failed'] as const;

export const v1DeliverySchema = z
  .object({
    integration: z.enum(integrationNames),
    status: z.enum(v1DeliveryStatuses),
    url: z
      .string()
      .nullable()
      .meta({
        description:
          'The created item: the GitHub, GitLab, Jira or Linear issue, the Asana task, the Slack message (an ' +
          'http(s) link). Null for email and webhooks, and for deliveries made before Snag kept the link',
      }),
    reason: z.string().nullable().meta({ description: 'Why a failed delivery failed; null otherwise' }),
  })
  .meta({ title: 'Delivery' });
export type V1Delivery = z.output<typeof v1DeliverySchema>;

/** One step to reproduce, as the widget recorded it (contracts/intake.ts `Step`). */
export const v1StepSchema = z
  .object({
    t: z.number().int().meta({ description: 'When it happened, epoch milliseconds' }),
    kind: z.enum(stepKinds).meta({
      description:
        'click, focus or change of a form field (never its value), submit of a form, load (a full page load), ' +
        "navigate (the page's own pushState/replaceState), history (back or forward), open (the visitor opened the widget)",
    }),
    label: z.string().meta({
      description: 'The target: its accessible name, text or a short selector; for a navigation, the address',
    }),
  })
  .meta({ title: 'Step' });

/** How long the v1 answer's replay links work (v1.ts signs them; docs/api.md). */
export const V1_REPLAY_LINK_HOURS = 1;

export const v1ReplaySchema = z
  .object({
    url: z.url().meta({
      description: "The replay in Snag's player, for a person: opens without signing in while the link lasts",
    }),
    dataUrl: z.url().meta({
      description: "The recording itself: a gzip (application/gzip) of rrweb's JSON array of events",
    }),
    expiresAt: isoTime.meta({ description: `When both links stop working (${V1_REPLAY_LINK_HOURS} hour)` }),
    start: z.number().int().meta({ description: 'The first recorded moment, epoch milliseconds' }),
    end: z.number().int().meta({ description: 'The last recorded moment, epoch milliseconds' }),
    stopped: z.enum(replayStops).optional().meta({
      description:
        'Present when the recording stopped early: mutations = the page changed too much to record',
    }),
  })
  .meta({ title: 'Replay' });

export const v1IssueSchema = z
  .object({
    number: z.number().int(),
    title: z.string(),
    description: z.string(),
    resolved: z.boolean(),
    createdAt: isoTime,
    reporter: z.string().nullable(),
    pageUrl: z.string().nullable(),
    device: z.record(z.string(), z.unknown()),
    customFields: z.array(z.object({ name: z.string(), value: z.string() })),
    files: z.array(
      z.object({
        name: z.string(),
        originalName: z.string(),
        size: z.number(),
        type: z.string(),
        url: signedUrl,
      }),
    ),
    screenshots: z.array(
      z.object({
        name: z.string(),
        type: z.enum(screenshotTypes),
        size: z.number(),
        url: signedUrl,
        snapshotUrl: signedUrl.nullable(),
      }),
    ),
    linksExpireAt: isoTime,
    deliveries: z
      .array(v1DeliverySchema)
      .meta({ description: 'Where the issue went: one entry per integration it was sent to' }),
    steps: z.array(v1StepSchema).meta({
      description:
        "Steps to reproduce: the visitor's last actions before the report, oldest first; empty when none",
    }),
    sentAt: z
      .number()
      .int()
      .nullable()
      .meta({
        description:
          "When the visitor sent the report, epoch milliseconds on the visitor's own clock (the clock of the steps' " +
          "and the replay's times); null for reports from widgets older than it, where createdAt stands in",
      }),
    replay: v1ReplaySchema.nullable().meta({
      description:
        'The last minute on the page before the report, when the report carried a recording; else null',
    }),
    filedVia: filedViaSchema.nullable().meta({
      description:
        "How the issue was filed when not through the widget: the browser extension (by the member named) or an API token (its creator's name and the token's name); null for the widget's reports",
    }),
    duplicateOf: z.number().int().nullable().meta({
      description:
        'The issue this one was merged into as its duplicate (issue 37); null when it stands alone',
    }),
    reports: z.number().int().meta({
      description: 'Reports of the issue: 1 + the duplicates merged into it',
    }),
    ...triageShape,
  })
  .meta({ title: 'Issue' });
export type V1Issue = z.output<typeof v1IssueSchema>;

/** A duplicate as its primary lists it (contracts/similar.ts `DuplicateReport`). */
const v1DuplicateSchema = z
  .object({
    number: z.number().int(),
    title: z.string(),
    status: z.enum(issueStatuses),
    createdAt: z.string(),
    reporterEmail: z.string().optional(),
    browser: z.string().optional(),
    os: z.string().optional(),
    device: z.string().optional(),
    pageUrl: z.string().optional(),
  })
  .meta({ title: 'Duplicate' });

/** POST/DELETE …/issues/{number}/merge (issue 37): contracts/similar.ts `MergeAnswer`. */
export const v1MergeSchema = z
  .object({
    issue: z.object({
      number: z.number().int(),
      duplicateOf: z.number().int().optional().meta({ description: 'Absent once it stands alone' }),
    }),
    primary: z.object({
      number: z.number().int(),
      duplicateOf: z.number().int().optional(),
      reports: z.number().int().meta({ description: '1 + the duplicates merged into it' }),
      duplicates: z.array(v1DuplicateSchema),
      affected: z.object({
        browsers: z.array(z.string()),
        pages: z.array(z.string()).meta({ description: 'Scheme, host and path; no query' }),
      }),
    }),
  })
  .meta({ title: 'Merge' });

export const v1CommentSchema = z
  .object({
    id: z.string(),
    author: actorSchema,
    body: z.string(),
    visibility: z.enum(commentVisibilities),
    createdAt: isoTime,
    editedAt: isoTime.nullable(),
    mentions: z.array(z.string()),
  })
  .meta({ title: 'Comment' });
export const v1CommentPageSchema = z
  .object({ comments: z.array(v1CommentSchema), next: z.string().nullable() })
  .meta({ title: 'CommentPage' });

/**
 * GET /api/v1/projects/{projectId}/issues/{number}/similar: contracts/similar.ts `SimilarAnswer` (the
 * dashboard's shape), as a schema for the OpenAPI document.
 */
export const v1SimilarSchema = z
  .object({
    ready: z
      .boolean()
      .meta({ description: 'False while the report is still being compared (ask again shortly).' }),
    similar: z
      .array(
        z.object({
          number: z.number().int(),
          title: z.string(),
          status: z.enum(issueStatuses),
          score: z
            .number()
            .min(0)
            .max(1)
            .meta({ description: '0..1, two decimals; the list is sorted by it.' }),
          reasons: z.array(z.enum(similarReasons)).min(1).meta({ description: 'Why, strongest first.' }),
          createdAt: z.string(),
          reports: z.number().int().min(1).meta({ description: '1 + the duplicates merged into it.' }),
        }),
      )
      .max(similarLimits.suggestions),
  })
  .meta({ title: 'SimilarIssues' });

export const v1ProjectListSchema = z
  .object({ projects: z.array(v1ProjectSchema) })
  .meta({ title: 'ProjectList' });

// Filing issues (`issues:create`): the widget's own intake rules under the v1 names. The fields reuse the
// report's schemas (contracts/intake-schemas.ts), so a rule on a visitor's text or an upload key holds alike.

/** POST /api/v1/projects/{projectId}/uploads: one object about to be uploaded (the widget's upload call). */
export const v1UploadBody = uploadRequestSchema.meta({
  title: 'UploadRequest',
  examples: [{ kind: 'screenshot', type: 'image/png', size: 183422 }],
});

/** Its answer: a presigned POST. Send `fields` then the file as the form's last field `file`, to `url`. */
export const v1UploadSchema = z
  .object({
    key: z
      .string()
      .meta({ description: 'Name the object by this key in the issue (`screenshots[].key`, …)' }),
    url: z.url().meta({ description: 'Where to POST the multipart form' }),
    fields: z.record(z.string(), z.string()).meta({ description: 'Form fields to send before the file' }),
  })
  .meta({ title: 'Upload' });

const report = reportSchema.shape;

/**
 * POST /api/v1/projects/{projectId}/issues. `Idempotency-Key` (header, 1–200 visible ASCII characters):
 * a retried call with the same key and body answers the first call's issue and files nothing again.
 */
export const v1IssueCreateBody = z
  .strictObject({
    title: report.title,
    description: report.msg,
    reporterEmail: report.username,
    pageUrl: report.href,
    device: z
      .strictObject({
        browser: report.browser,
        browserVersion: report.browserVersion,
        os: report.os,
        osVersion: report.osVersion,
        deviceType: report.deviceType,
        screenResolution: report.screenResolution,
      })
      .prefault({}),
    customFields: report.customFields,
    screenshots: report.screenshots,
    files: z
      .array(z.strictObject({ key: uploadKeyField, name: report.files.unwrap().element.shape.original_name }))
      .max(reportLimits.filesMax)
      .default([]),
    logs: report.logs,
    steps: report.steps,
    replay: report.replay,
    sentAt: report.sentAt,
    language: report.language,
  })
  .overwrite((body) => plausibleTimes(body))
  .meta({
    title: 'IssueCreate',
    examples: [
      {
        title: 'Checkout button does nothing',
        description: 'Clicking "Pay" on the checkout page shows no error and no confirmation.',
        pageUrl: 'https://shop.example.com/checkout',
        screenshots: [{ key: 'pending/0d8f…/screenshot/5b1e….png', type: 'png' }],
      },
    ],
  });
export type V1IssueCreate = z.output<typeof v1IssueCreateBody>;

/** The answer of a create: the issue's number and where it is (201; a replay of an idempotent call, 200). */
export const v1IssueCreatedSchema = z
  .object({
    number: z.number().int(),
    url: z.url().meta({ description: "The issue in Snag's dashboard" }),
  })
  .meta({ title: 'IssueCreated' });
export type V1IssueCreated = z.output<typeof v1IssueCreatedSchema>;

/**
 * The create's `Idempotency-Key` header (issue 34): 1–200 visible ASCII characters, as clients generate them
 * (a UUID, a CI job's run id). The route declares it for the document; the operation parses it with this.
 */
export const IDEMPOTENCY_KEY_MAX = 200;
export const v1IdempotencyHeaders = z.object({
  'Idempotency-Key': z
    .string()
    .min(1)
    .max(IDEMPOTENCY_KEY_MAX)
    .regex(/^[\x21-\x7e]+$/)
    .optional()
    .meta({
      description:
        'Makes the call safe to retry: the same key with the same body answers the first issue (200) and files ' +
        'nothing; with another body, 422 IDEMPOTENCY_KEY_REUSED; while the first call runs, 409 ' +
        'IDEMPOTENCY_IN_PROGRESS. Kept 24 hours per token. 1–200 visible ASCII characters, e.g. a UUID.',
    }),
});
/** How long a create's idempotency record lasts (docs/api.md "Filing issues"). */
export const IDEMPOTENCY_HOURS = 24;

const widgetLanguage = z.enum(widgetLanguages);
/**
 * GET /api/v1/projects/{projectId}/widget: the project's widget configuration after the plan (what the
 * install snippet's loader receives, contracts/widget-config.ts), so the browser extension can show the
 * widget's own form on a page without the snippet.
 */
export const v1WidgetConfigSchema = z
  .object({
    id: z.string(),
    host: z.string(),
    wildcard: z.boolean(),
    testMode: z.boolean(),
    hideOnMobile: z.boolean(),
    language: widgetLanguage,
    color: z.string(),
    scheme: z.enum(['white', 'black']),
    text: z.string(),
    position: z.enum(widgetPositions),
    screenshot: z.boolean(),
    upload: z.boolean(),
    video: z.boolean(),
    replay: z.object({ maskText: z.boolean() }).optional(),
    strictPrivacy: z.literal(true).optional().meta({
      description:
        'Strict privacy mode: ask for no reporter email; addresses lose query and fragment, log lines keep their first line (the server enforces it too)',
    }),
    welcomeScreen: z.boolean(),
    branding: z.boolean(),
    customFields: z.array(z.object({ name: z.string(), selector: z.string() })),
    texts: z.record(z.string(), z.string()).optional(),
    languages: z.array(widgetLanguage).optional(),
    textSets: z.record(z.string(), z.record(z.string(), z.string())).optional(),
    api: z.string(),
  })
  .meta({ title: 'WidgetConfig' });
export type V1WidgetConfig = z.output<typeof v1WidgetConfigSchema>;
