/**
 * The deliverer contract (issue 11): one function per integration, registered in
 * delivery-run.ts's `deliverers`. The delivery run reads everything a deliverer
 * needs, calls it, and owns every status write (data-model.md 4.8):
 *   - resolves `{ vendorId, url? }` → the id (and the created item's http(s) address) is recorded and
 *     `st.<name>` = 2;
 *   - throws `PermanentFailure` → `st.<name>` = 3 at once, with its `reason` kept on the issue and on the
 *     sync marker (shown by the issue detail and the sync list); no retry;
 *   - throws anything else → the message is retried after a growing delay (1, 5, 20, 60 minutes: the
 *     manifest's retryDelaysSeconds); on the last receive the status is 3 and the message goes to the DLQ.
 *
 * Idempotency: `ctx.vendorId` is the id an earlier attempt recorded. A deliverer given one MUST NOT
 * create a second object (a single-call deliverer returns it at once; a multi-step one, e.g. create then
 * attach, continues from it). A multi-step deliverer calls `ctx.recordVendorId(id)` right after the
 * create, before the steps that can fail.
 *
 * Unknown outcomes (docs/decisions.md "Deliveries always finish"): the consumer marks the attempt on the
 * issue before calling a deliverer, and every recorded outcome removes the mark. A retry that still finds
 * it (the consumer died, ran out of its time budget, or could not write the outcome) does what
 * `afterUnknownOutcome` says for that integration. Each deliverer gets `ctx.signal`, aborted when the
 * record's time budget runs out; `ctx.http` already carries it.
 */

import type { ReplayStop } from '#contracts/intake';
import { catalogueTable, titleOf } from '#contracts/integration-catalogue';
import type { IntegrationName } from '#contracts/integrations';
import type { Logger } from '#runtime/log';
import type { OutboundFetch } from '#runtime/outbound';
import type { StoredIssue } from '../issues/issue';
import type { Project } from '../projects/project';
import type { IntegrationRecord } from './integration';

/** A failure retrying cannot fix (bad token, missing project or channel, `not_in_channel`). */
export class PermanentFailure extends Error {
  /** Shown to the client (issue detail, sync list): plain text, no secrets. */
  readonly reason: string;
  constructor(reason: string, options?: { cause?: unknown }) {
    super(reason, options);
    this.name = 'PermanentFailure';
    this.reason = reason.slice(0, 500);
  }
}

/** A link that stays valid at least 7 days (docs/decisions.md "Links in deliveries"). */
export interface DeliveryLink {
  /** The stored object's name. */
  name: string;
  /** For files: the visitor's file name; for screenshots: `screenshot-<i>.<type>`. */
  label: string;
  type: string;
  size: number;
  url: string;
}

/**
 * The issue's session replay as a delivery carries it: the dashboard's public page of the recording,
 * signed like the files' links to last the deliverer's `linkLifetimeMs`, and what it covers.
 */
export interface DeliveryReplay {
  url: string;
  /** What it covers, epoch ms. */
  start: number;
  end: number;
  stopped?: ReplayStop;
}

/** The issue as the deliverers see it: header and detail together, as the issues' reader reads them. */
export type DeliveryIssue = Omit<StoredIssue, 'st' | 'reasons' | 'urls'>;

export interface DeliveryContext<N extends IntegrationName = IntegrationName> {
  issue: DeliveryIssue;
  project: Project;
  /** UNMASKED: tokens, OAuth tokens. Never log it. */
  integration: IntegrationRecord<N>;
  /** The issue in the dashboard. */
  issueUrl: string;
  /** Links to the screenshots and files, signed once to last the deliverer's `linkLifetimeMs`. */
  screenshots: DeliveryLink[];
  files: DeliveryLink[];
  /**
   * The replay's link, signed with the others; null when the issue has none. The steps to reproduce are
   * the issue's own (`issue.steps`), written by steps.ts.
   */
  replay: DeliveryReplay | null;
  /** Reads a stored object (screenshots to upload to a vendor), at most `maxBytes`. */
  readObject: (name: string) => Promise<Uint8Array>;
  log: Logger;
  /** The SSRF-guarded client for user-supplied hosts (functions/runtime/outbound.ts). */
  http: OutboundFetch;
  /** The vendor id an earlier attempt recorded (see the module comment). */
  vendorId?: string;
  /**
   * Records the vendor's id now (before attachments etc.), so a retry continues instead of creating again;
   * with the created item's web address when the vendor answered one (stored only if http(s)).
   */
  recordVendorId: (id: string, url?: string) => Promise<void>;
  /** Stable id of this delivery: `<projectId>:<number>:<name>` (webhooks carry it for receivers to dedupe). */
  deliveryId: string;
  /** The receive count of the message (1 on the first attempt). */
  attempt: number;
  correlationId: string;
  /**
   * Aborted when the record's time budget runs out (the consumer then stops waiting for the deliverer).
   * Optional so that tests may build a context without one; the consumer always sets it.
   */
  signal?: AbortSignal;
}

/**
 * What a retry does after an attempt whose outcome is unknown (it may have reached the vendor): the
 * catalogue's `unknownOutcome` of each integration (contracts/integration-catalogue.ts says why each is
 * `resend` or `ask`). An `ask` fails the issue (3) with a reason that asks the client to check the vendor
 * before Sync; nothing is lost, and nothing is sent twice.
 */
export const afterUnknownOutcome = /* @__PURE__ */ catalogueTable('unknownOutcome');

/** The reason of an `ask` after an unknown outcome: the client checks the vendor, then Syncs if missing. */
export const unknownOutcomeReason = (name: IntegrationName, issueNumber: number) =>
  `An earlier attempt stopped before Snag learned whether ${titleOf(name)} received issue #${issueNumber}. ` +
  `Check ${titleOf(name)}, and Sync only if it is missing.`;

/**
 * What a deliverer answers: the vendor's id, and the web address of the item it created (the tracker
 * issue or task, the Slack message) as the vendor gave it, for the issue page's link (kept only when
 * http(s): `deliveredUrl`). Email and webhooks create nothing to link to.
 */
export interface Delivered {
  vendorId?: string;
  url?: string;
}

export type Deliverer<N extends IntegrationName = IntegrationName> = ((
  ctx: DeliveryContext<N>,
) => Promise<Delivered>) & {
  /**
   * How long the links in its context must last, in ms: the delivery signs them once, for this long
   * (links.ts `FILE_LINK_LIFETIME_MS` when it declares none).
   */
  linkLifetimeMs?: number;
};

export type DelivererRegistry = { [N in IntegrationName]?: Deliverer<N> };

/** The reason of a delivery that failed every attempt (the consumer's last receive, or its DLQ consumer). */
export const gaveUpReason = (attempts: number, why: string) =>
  `Gave up after ${attempts} attempts: ${why}`.slice(0, 500);
