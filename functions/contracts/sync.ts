/**
 * Two-way tracker sync (issue 24, DESIGN section 8 "inbound tracker hooks", docs/webhooks.md "Inbound
 * tracker hooks"): which integrations take part, the inbound hook's path parameters, the settings calls'
 * answers, each integration's sync options, and the message a verified hook delivery becomes on the
 * `tracker` queue. A vendor joins with `tracker: true` in its catalogue row (integration-catalogue.ts), its
 * name in `trackerVendors` (integration-names.ts; the catalogue holds the two equal) and an adapter in
 * functions/integrations/sync/adapters.ts.
 */
import * as z from 'zod';
import { isOneOf, type TrackerVendor, trackerVendors } from './integration-names';
import { triageLimits } from './triage';

export { type TrackerVendor, trackerVendors };
/** Whether an integration syncs both ways yet (its settings show the hook panel and the sync options). */
export const isTrackerVendor = (name: string): name is TrackerVendor => isOneOf(trackerVendors, name);

/**
 * A tracker issue's lasting identity, the key of its link and of the state Snag last wrote there: the id
 * the delivery recorded, except Linear's `<uuid> <identifier> <url>`, whose identifier and URL change when
 * the issue moves team or is renamed (its hooks then still name the same UUID).
 */
export const trackerIssueId = (vendor: string, issue: string) =>
  vendor === 'linear' ? (issue.split(' ')[0] ?? issue) : issue;

/** A hook id: 128 random bits as 32 hex digits (functions/integrations/sync/hook.ts). */
export const hookIdPattern = /^[0-9a-f]{32}$/;

/** `POST /api/hooks/{vendor}/{hookId}`: a value outside these is NOT_FOUND, as an unknown hook is. */
export const hookParamsSchema = z.object({
  vendor: z.enum(trackerVendors),
  hookId: z.string().regex(hookIdPattern),
});

/**
 * The sync options of a tracker integration's `data`, optional so that data saved before issue 24 (and
 * every caller that builds data by hand) stays valid; `syncOptionsOf` reads them with their defaults:
 * Snag → tracker on (close/reopen and public comments), tracker comments internal in Snag.
 */
export const syncOptionFields = {
  /** Resolving (or reopening) in Snag closes (or reopens) the tracker issue. Default on. */
  syncState: z.boolean().optional(),
  /** A public comment in Snag is posted on the tracker issue. Default on. */
  syncComments: z.boolean().optional(),
  /** A tracker comment becomes a public comment in Snag (the reporter sees it), not internal. Default off. */
  publicTrackerComments: z.boolean().optional(),
};
export type SyncOptions = {
  syncState: boolean;
  syncComments: boolean;
  publicTrackerComments: boolean;
};
export const syncOptionsOf = (
  data: Partial<Record<keyof SyncOptions, boolean | undefined>>,
): SyncOptions => ({
  syncState: data.syncState ?? true,
  syncComments: data.syncComments ?? true,
  publicTrackerComments: data.publicTrackerComments ?? false,
});

/** The settings calls' answer (`…/{vendor}/hook/{siteId}`): the inbound URL, and the secret where revealed. */
export interface HookAnswer {
  vendor: TrackerVendor;
  /** The inbound URL to give the tracker; null until the first reveal creates the hook. */
  url: string | null;
  /** Only in the answers of reveal and regenerate: never in a GET. */
  secret?: string;
  /** Registered through the vendor's API (GitLab): the vendor's hook id and when. */
  registered: { id: string; at: string } | null;
}

/**
 * A verified hook delivery, reduced by the vendor's adapter to what Snag acts on (the `tracker` queue):
 * a state change (the consumer re-reads the tracker issue's state before changing Snag's) or a comment.
 */
export const trackerEventSchema = z.object({
  projectId: z.uuid(),
  vendor: z.enum(trackerVendors),
  hookId: z.string().regex(hookIdPattern),
  /** The vendor's delivery id (GitLab Idempotency-Key, Jira timestamp+event+id): the dedupe key. */
  deliveryId: z.string().min(1).max(300),
  kind: z.enum(['state', 'comment']),
  /** The tracker issue as the outbound delivery recorded it (GitLab iid, Jira key, GitHub html_url, Linear UUID). */
  issue: z.string().min(1).max(200),
  /** The tracker issue's address, for the timeline's link. */
  url: z.string().max(2000).optional(),
  /** Who did it on the tracker. */
  author: z.object({ id: z.string().max(200), name: z.string().max(200) }),
  comment: z
    .object({ id: z.string().min(1).max(200), body: z.string().max(triageLimits.commentMax) })
    .optional(),
  correlationId: z.string().max(128).optional(),
});
export type TrackerEvent = z.infer<typeof trackerEventSchema>;
