/**
 * The integrations' contracts (issue 11, SPEC.md sections 3 and 5), shared by the dashboard and the API:
 * the `data` of each integration, the body of `PATCH client/integration/{siteId}`, the masked read shape
 * (`msg.integrations`) and the sync calls.
 *
 * Secrets (API tokens, the webhook token, OAuth tokens) stay on the server. Reads show them masked
 * (`maskSecret`: `••••` plus at most the last 4 characters); a save that sends a masked value back means
 * "unchanged" (`isMasked`). OAuth tokens are never shown at all, only `authorized`.
 */
import * as z from 'zod';
import { discordDataSchema, teamsDataSchema } from './chat-integrations';
import type { ErrorCode } from './errors';
import { catalogueTable, integrationCatalogue } from './integration-catalogue';
import { type IntegrationName, integrationNames } from './integration-names';
import { limits } from './limits';
import { nameText } from './schemas';
import { syncOptionFields } from './sync';
import { type WebhookEvent, webhookEvents } from './triage';

export { type IntegrationName, integrationNames };

const code = (c: ErrorCode) => ({ error: c });
const flag = z.union([z.literal(0), z.literal(1)]);

/** What every masked value starts with. */
export const MASK = '••••';
/** A masked secret: the mask, then the last 4 characters of values of 12 or more (nothing of shorter ones). */
export const maskSecret = (value: string): string =>
  value === '' ? '' : `${MASK}${value.length >= 12 ? value.slice(-4) : ''}`;
/** A value the dashboard sent back as it read it: keep what is stored. */
export const isMasked = (value: unknown): boolean => typeof value === 'string' && value.startsWith(MASK);

/**
 * A vendor's API key or token as typed (or the masked value the dashboard read): it goes into an HTTP header
 * (`PRIVATE-TOKEN`, `Authorization`), which holds visible ASCII only; a key with anything else (a space
 * inside, an accent, a control or zero-width character from a paste) is a mistake in the key, refused here
 * as INVALID_PARAMETERS rather than failing as the vendor's outage when the header cannot be sent.
 */
export const vendorKeyText = z
  .string()
  .trim()
  .max(1000)
  .regex(new RegExp(`^(?:${MASK})?[\\x21-\\x7E]*$`), { error: 'INVALID_PARAMETERS' });

/** The fields of each integration's `data` that are secrets (masked on read, kept when sent back masked). */
export const secretFields = /* @__PURE__ */ catalogueTable('secrets');

/**
 * Where each integration's secret goes (the catalogue's `bindings`): a masked secret sent back means "the
 * stored one" only while these are unchanged; with a new host, URL or username the stored secret would go
 * to the new receiver, so it must be typed again (docs/decisions.md "A stored secret stays with its target").
 */
export const secretBindings = /* @__PURE__ */ catalogueTable('bindings');

/** A host or URL as the receiver it names: https implied, scheme and host in lower case, no trailing slash. */
function receiverOf(value: unknown): string {
  const raw = String(value ?? '').trim();
  if (raw === '') return '';
  try {
    const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `https://${raw}`);
    return url.href.replace(/\/+$/, '');
  } catch {
    return raw;
  }
}

/** Whether `sent` names the same receiver (and user) for the secret as `stored` (`secretBindings`). */
export function sameSecretBinding(
  name: IntegrationName,
  stored: Record<string, unknown>,
  sent: Record<string, unknown>,
): boolean {
  return (secretBindings[name] as readonly string[]).every((f) =>
    f === 'username'
      ? String(stored[f] ?? '').trim() === String(sent[f] ?? '').trim()
      : receiverOf(stored[f]) === receiverOf(sent[f]),
  );
}

/** An https URL or empty; the host of a self-hosted GitLab or Jira, or a webhook receiver. */
const httpsUrl = (max = 2000) =>
  z.union([z.literal(''), z.url({ protocol: /^https$/, error: 'INVALID_PARAMETERS' }).max(max)]);

/**
 * `http://localhost` or `http://127.0.0.1`, with a port and a path: the local stack's own receivers and
 * vendor fakes (README "Vendor fakes"). The schema admits it on every stage so that the dashboard has one
 * rule; the save call refuses it unless the local outbound allowance is on (functions/runtime/outbound.ts),
 * and the guard refuses it again at delivery.
 */
const loopbackHttp = /^http:\/\/(?:localhost|127\.0\.0\.1)(?::\d{1,5})?(?:\/\S*)?$/i;
/** Whether a target URL or host is the local-only loopback form above. */
export const isLoopbackHttp = (value: unknown): boolean =>
  typeof value === 'string' && loopbackHttp.test(value.trim());
const loopbackTarget = (max: number) =>
  z.string().trim().max(max).regex(loopbackHttp, { error: 'INVALID_PARAMETERS' });
/**
 * A GitLab or Jira host: empty, an https URL, a bare host name (`company.atlassian.net`, https is
 * implied), or http://localhost / http://127.0.0.1 for the local vendor fakes (local stack only, see
 * `loopbackHttp`).
 */
const vendorHost = (max = 500) =>
  z.union([
    httpsUrl(max),
    z
      .string()
      .trim()
      .max(max)
      .regex(/^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}(?::\d{1,5})?(?:\/[\w./-]*)?$/i, {
        error: 'INVALID_PARAMETERS',
      }),
    loopbackTarget(max),
  ]);
const secret = z.string().trim().max(1000).default('');
const vendorKey = vendorKeyText.default('');
const vendorId = z.string().trim().max(200).default('');
/** A named extra field (Jira's custom fields, the mail's contact fields): the name follows the names' rule. */
const keyValue = z.object({ name: nameText(100), value: z.string().max(500) });
const emailAddress = z.email(code('INVALID_EMAIL')).max(limits.loginInputMax);

/** Email: the address (required while active), up to 3 copies and extra name/value pairs shown in the mail. */
export const emailDataSchema = z.object({
  email: z.union([z.literal(''), emailAddress]).default(''),
  cc: z.array(emailAddress).max(limits.emailCcMax).default([]),
  contactFields: z.array(keyValue).max(10).default([]),
});
/**
 * GitLab: host (empty = gitlab.com), personal access token `key`, chosen project `id`, and the two-way
 * sync's options (contracts/sync.ts).
 */
export const gitlabDataSchema = z.object({
  host: vendorHost().default(''),
  key: vendorKey,
  id: vendorId,
  ...syncOptionFields,
});
/** Jira: site host, username, API token `key`, project `id`, issue type `issueId`, extra fields (≤ 10). */
export const jiraDataSchema = z.object({
  host: vendorHost().default(''),
  username: z.string().trim().max(limits.loginInputMax).default(''),
  key: vendorKey,
  id: vendorId,
  issueId: vendorId,
  /** Extra Jira fields: `name` is the Jira field key (e.g. `customfield_10010` or `labels`), `value` its value. */
  customFields: z.array(keyValue).max(limits.jiraCustomFields).default([]),
  ...syncOptionFields,
});
/** Slack: the chosen channel `id` (and its name for display); the OAuth tokens are server-side only. */
export const slackDataSchema = z.object({ id: vendorId, name: z.string().max(200).default('') });
/** Asana: the chosen project `id` (and its name); the OAuth tokens are server-side only. */
export const asanaDataSchema = z.object({ id: vendorId, name: z.string().max(200).default('') });
/**
 * A GitHub repository as `owner/repo` (GitHub's `full_name`): owner names are letters, digits and single
 * hyphens; repository names letters, digits, `.`, `_` and `-` (never `.` or `..` alone, which would walk
 * the API path).
 */
export const githubRepoName = z
  .string()
  .trim()
  .max(200)
  .regex(/^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})\/(?!\.\.?$)[A-Za-z0-9._-]{1,100}$/, {
    error: 'INVALID_PARAMETERS',
  });
/** A GitHub label name (GitHub allows 50 characters): the names' rule, and no commas (the web UI splits on them). */
const githubLabel = nameText(50).refine((v) => !v.includes(','), { error: 'INVALID_PARAMETERS' });
/** Labels set on each created issue; repeats are dropped (GitHub would answer 422 to none, but shows one). */
export const GITHUB_LABELS_MAX = 10;
/**
 * How long the screenshot and file links in a GitHub issue work, in days (functions/integrations/links.ts
 * signs them; the GitHub screen states it; docs/decisions.md "GitHub: screenshots as signed links").
 */
export const GITHUB_LINK_DAYS = 365;
/**
 * GitHub (issue 24): a fine-grained personal access token `key` (docs/decisions.md "GitHub: a personal
 * access token first"), the chosen repository `id` (`owner/repo`) and the labels set on created issues.
 */
export const githubDataSchema = z.object({
  key: vendorKey,
  id: z.union([z.literal(''), githubRepoName]).default(''),
  labels: z
    .array(githubLabel)
    .max(GITHUB_LABELS_MAX)
    .transform((list) => [...new Set(list)])
    .default([]),
  ...syncOptionFields,
});

/**
 * Webhooks: an https URL (required while active; http://localhost or 127.0.0.1 on the local stack only)
 * and the token that keys the signature.
 */
export const webhooksDataSchema = z.object({
  url: z.union([httpsUrl(), loopbackTarget(2000)]).default(''),
  token: secret,
  /**
   * The events sent (DESIGN section 8 `event`, issue 23); absent is `['issue.created']` (`webhookEventsOf`).
   * `issue.created` is always among them: it carries the issue's delivery status and Sync (decision Tr-M6),
   * so a list is normalised to hold it, first, without repeats.
   */
  events: z
    .array(z.enum(webhookEvents))
    .max(webhookEvents.length * 2)
    .transform((list) => webhookEvents.filter((e) => e === 'issue.created' || list.includes(e)))
    .optional(),
});

/**
 * Linear: a personal API key `key` (Linear's fixed endpoint `LINEAR_API_URL`, so no host; docs/decisions.md
 * "Linear: a personal API key"), the chosen team `id` and its name for display.
 */
export const linearDataSchema = z.object({
  key: vendorKey,
  id: vendorId,
  name: z.string().max(200).default(''),
  ...syncOptionFields,
});

/**
 * ClickUp (issue 36): a personal API token `key` (`pk_…`, ClickUp's fixed API `CLICKUP_API_URL`, so no host),
 * the chosen list as `<workspace id>/<list id>` (the task goes to the list; the webhook is registered on
 * the workspace, ClickUp's v2 "team"), and its path (`Workspace / Space / Folder / List`) for display.
 */
export const clickupListChoice = z
  .string()
  .trim()
  .max(200)
  .regex(/^(?:[A-Za-z0-9_-]{1,60}\/[A-Za-z0-9_-]{1,60})?$/, { error: 'INVALID_PARAMETERS' });
export const clickupDataSchema = z.object({
  key: vendorKey,
  id: clickupListChoice.default(''),
  name: z.string().max(300).default(''),
  ...syncOptionFields,
});

/**
 * Azure DevOps Boards: the organisation URL `host` (`https://dev.azure.com/{org}`, or a self-hosted Azure
 * DevOps Server collection URL), the personal access token `key`, the chosen project `id` (its GUID) and
 * its name for display, the work item type `issueId` (its name, Bug by default), and the two-way sync's
 * options (docs/decisions.md "Azure DevOps Boards").
 */
export const azureDataSchema = z.object({
  host: vendorHost().default(''),
  key: vendorKey,
  id: vendorId,
  name: z.string().max(200).default(''),
  issueId: z.string().trim().max(128).default('Bug'),
  ...syncOptionFields,
});

/** A Trello object id (a board, a list): 24 hex digits (Trello's ids are MongoDB ObjectIds). */
const trelloId = z
  .union([
    z.literal(''),
    z
      .string()
      .trim()
      .regex(/^[0-9a-f]{24}$/i, { error: 'INVALID_PARAMETERS' }),
  ])
  .default('');
/**
 * Trello (issue 36): the app's API key `key`, a token `token` the client made for it, and the app's
 * secret `secret` (Trello signs webhook deliveries with it, ../shared/api-specs/README.md "Trello
 * webhooks"); the chosen `board`, the `list` new cards go to and the `doneList` that means resolved.
 */
export const trelloDataSchema = z.object({
  key: z
    .string()
    .trim()
    .max(100)
    .regex(/^[0-9a-z]*$/i, { error: 'INVALID_PARAMETERS' })
    .default(''),
  token: vendorKey,
  secret: vendorKey,
  board: trelloId,
  boardName: z.string().max(200).default(''),
  list: trelloId,
  doneList: trelloId,
  ...syncOptionFields,
});

/** The events a webhook integration's data subscribes to (absent: version 1's `issue.created` alone). */
export const webhookEventsOf = (data: { events?: readonly WebhookEvent[] | undefined }): WebhookEvent[] =>
  webhookEvents.filter((e) => e === 'issue.created' || (data.events ?? []).includes(e));

/** The fields of each integration's `data` that name an outbound target (checked by the save call). */
export const targetFields = /* @__PURE__ */ catalogueTable('targets');

/** Each integration's `data` schema, keyed by the catalogue (typed exhaustive against it). */
export const integrationDataSchemas = {
  email: emailDataSchema,
  gitlab: gitlabDataSchema,
  jira: jiraDataSchema,
  slack: slackDataSchema,
  asana: asanaDataSchema,
  github: githubDataSchema,
  webhooks: webhooksDataSchema,
  linear: linearDataSchema,
  clickup: clickupDataSchema,
  teams: teamsDataSchema,
  discord: discordDataSchema,
  azure: azureDataSchema,
  trello: trelloDataSchema,
} as const satisfies Record<IntegrationName, z.ZodObject>;

/** Each integration's `data` as its schema gives it. */
export type IntegrationData = { [N in IntegrationName]: z.infer<(typeof integrationDataSchemas)[N]> };

/**
 * What is required while an integration is active (SPEC.md section 5), checked on the merged data (a
 * masked secret counts as present). Returns the failing field and its code, or null.
 */
export function activeRequirement(
  name: IntegrationName,
  data: Record<string, unknown>,
): { field: string; code: ErrorCode } | null {
  const missing = (f: string) => typeof data[f] !== 'string' || (data[f] as string).trim() === '';
  const field = (integrationCatalogue[name].required as readonly string[]).find(missing);
  if (field === undefined) return null;
  return { field, code: field === 'email' ? 'INVALID_EMAIL' : 'INVALID_PARAMETERS' };
}

/**
 * One integration as the save takes it. SPEC.md section 3 puts `active` and `authorized` inside `data`;
 * the dashboard sends them beside it. Both shapes are accepted (`resolveFlag` settles a body carrying both).
 */
const entry = <N extends IntegrationName, S extends z.ZodObject>(name: N, data: S) =>
  z.object({
    name: z.literal(name),
    active: flag.optional(),
    /** GitLab and Jira: 1 after the projects call succeeded, 0 on reset. Ignored for Slack/Asana (OAuth sets it). */
    authorized: flag.optional(),
    data: data.extend({ active: flag.optional(), authorized: flag.optional() }),
  });

type Entry = {
  [N in IntegrationName]: ReturnType<typeof entry<N, (typeof integrationDataSchemas)[N]>>;
}[IntegrationName];
const integrationEntrySchema = z.discriminatedUnion(
  'name',
  integrationNames.map((n) => entry(n, integrationDataSchemas[n])) as unknown as [Entry, ...Entry[]],
);

type Flag = 0 | 1;
/** A flag as a body gave it: beside `data` (the dashboard), inside it (SPEC), or both. */
export interface SentFlag {
  beside?: Flag;
  inside?: Flag;
}

/** One integration as the services take it: `data` only the integration's fields, the flags apart. */
export type IntegrationInput = {
  [N in IntegrationName]: { name: N; active: SentFlag; authorized: SentFlag; data: IntegrationData[N] };
}[IntegrationName];

/**
 * The value of a flag sent in both places: a client that read an answer (which carries both copies) and
 * changed one of them meant the one that differs from what is stored, whichever place it used.
 */
export function resolveFlag(sent: SentFlag, stored: Flag): Flag | undefined {
  const { beside, inside } = sent;
  if (beside === undefined || inside === undefined || beside === inside) return inside ?? beside;
  return inside !== stored ? inside : beside;
}

/** One integration of `PATCH client/integration/{siteId}`, in either shape, as an `IntegrationInput`. */
export const integrationInputSchema = integrationEntrySchema
  .refine((e) => (e.data.active ?? e.active) !== undefined, {
    path: ['data', 'active'],
    error: 'INVALID_PARAMETERS',
  })
  .transform((e): IntegrationInput => {
    const { active, authorized, ...data } = e.data;
    return {
      name: e.name,
      active: { beside: e.active, inside: active },
      authorized: { beside: e.authorized, inside: authorized },
      data,
    } as IntegrationInput;
  });

/** `PATCH client/integration/{siteId}`: a list with exactly one integration (SPEC.md section 7). */
export const integrationSaveSchema = z.array(integrationInputSchema).length(1);
export type IntegrationSaveBody = z.infer<typeof integrationSaveSchema>;

/** One integration as the dashboard reads it (`msg.integrations` of GET client/website/{id} and of the save). */
export type IntegrationView = {
  [N in IntegrationName]: {
    name: N;
    active: 0 | 1;
    authorized: 0 | 1;
    /** Whether the owner's plan allows it now (email always). */
    available: boolean;
    /**
     * Only on the local stack running the vendor fakes: the fake's address this integration talks to
     * instead of the real service (README "Vendor fakes"). Never in AWS.
     */
    fake?: string;
    /**
     * Secrets masked (`maskSecret`). `active` and `authorized` are also here, where SPEC.md section 3 puts
     * them; the copies beside `data` are the dashboard's (docs/decisions.md "SPEC's integration shape").
     * Every answer carries them; optional in the type so that views built by hand need not repeat them.
     */
    data: IntegrationData[N] & { active?: 0 | 1; authorized?: 0 | 1 };
  };
}[IntegrationName];

/** `msg.integrations`: all six, in `integrationNames` order, with defaults for the ones never saved. */
export type IntegrationsAnswer = IntegrationView[];

/** `PATCH client/integration/{siteId}` answers `msg.integrations` (all six, masked). */
export interface IntegrationSaveAnswer {
  integrations: IntegrationsAnswer;
}

/** `GET client/website/{id}/request?integration=<name>`: the query. */
export const syncListQuerySchema = z.object({ integration: z.enum(integrationNames) });

/** A ticket of a sync list. */
export interface SyncTicket {
  number: number;
  title: string;
  createdAt: string;
  /** The reason of a permanent failure, when the last attempt stored one. */
  reason?: string;
}

/** `msg.requests` of the sync list: the newest 50 markers, split into new (status 0) and failed (3). */
export interface SyncListAnswer {
  requests: { new: SyncTicket[]; failed: SyncTicket[] };
}

/** Tickets per sync call: one transaction holds 100 actions, two per ticket (data-model.md 4.8). */
export const SYNC_MAX = 50;

/** `PATCH client/integration/sync/{siteUuid}`: tickets (numbers as strings) to send again to `type`. */
export const syncRequestSchema = z.object({
  tickets: z
    .array(z.union([z.string().regex(/^[1-9][0-9]{0,9}$/), z.number().int().positive()]).transform(Number))
    .min(1)
    .max(SYNC_MAX),
  type: z.enum(integrationNames),
});
export type SyncRequest = z.infer<typeof syncRequestSchema>;

/** `PATCH client/integration/sync/{siteUuid}` answers the numbers it queued (those still new or failed). */
export interface SyncAnswer {
  synced: number[];
}

/** Issue detail additions: the reason of a permanent failure per integration (`<name>_reason`). */
export type IntegrationReasonFields = { [K in `${IntegrationName}_reason`]?: string };

/** The longest address of a delivered item Snag keeps (vendors' issue and message links are far shorter). */
export const DELIVERED_URL_MAX = 2000;

/**
 * The web address of the item a delivery created (the tracker issue or task, the Slack message), as a
 * link Snag may store and show: http(s) only and at most `DELIVERED_URL_MAX` characters. The address
 * comes from the vendor's answer, so anything else (`javascript:`, `data:`, garbage) is no link at all.
 */
export function deliveredUrl(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > DELIVERED_URL_MAX) return undefined;
  try {
    const { protocol } = new URL(value);
    return protocol === 'https:' || protocol === 'http:' ? value : undefined;
  } catch {
    return undefined;
  }
}
