/**
 * What a tracker brings to the two-way sync (issue 24): one adapter per vendor, gathered in adapters.ts.
 * The framework (inbound.ts, apply.ts, writeback.ts) knows nothing vendor-specific: it verifies with
 * `verify`, reduces with `parse`, re-reads with `state`, and writes back with `setState` and `comment`.
 */
import type { TrackerEvent, TrackerVendor } from '#contracts/sync';
import type { IntegrationRecord } from '../integration';
import type { Http } from '../vendors/http';
import type { Verdict } from './verify';

/** A verified delivery as Snag acts on it, before the hook handler adds the project and hook. */
export type ParsedDelivery = Omit<TrackerEvent, 'projectId' | 'hookId' | 'vendor' | 'correlationId'>;

/** A body that is not the vendor's shape: the hook answers 400 (INVALID_PARAMETERS). */
export class MalformedDelivery extends Error {}

export interface TrackerContext<V extends TrackerVendor = TrackerVendor> {
  integration: IntegrationRecord<V>;
  http: Http;
}

export interface TrackerAdapter<V extends TrackerVendor = TrackerVendor> {
  vendor: V;
  /**
   * Checks the vendor's proof on the raw body, with the hook's secret, before anything parses it. `at` is
   * the hook's own address and the integration, for a vendor that signs with its app's secret and the
   * callback URL (Trello) rather than a secret Snag generates.
   */
  verify(
    raw: string,
    headers: Record<string, string | undefined>,
    secret: string,
    nowMs: number,
    at: { url: string; integration: IntegrationRecord<V> },
  ): Verdict;
  /**
   * The delivery as Snag acts on it; null for an event Snag does not act on (another project, an issue
   * opened or edited, a note on a merge request); `MalformedDelivery` when it is not the vendor's shape.
   */
  parse(
    body: unknown,
    headers: Record<string, string | undefined>,
    integration: IntegrationRecord<V>,
  ): ParsedDelivery | null;
  /** The tracker issue's state now (deliveries arrive out of order: this decides, not the payload). */
  state(ctx: TrackerContext<V>, issue: string): Promise<{ closed: boolean; url?: string }>;
  /** Closes or reopens the tracker issue; false when the tracker offers no way to (a Jira workflow without one). */
  setState(ctx: TrackerContext<V>, issue: string, closed: boolean): Promise<boolean>;
  /**
   * Posts a Snag comment on the tracker issue as "<author> in Snag", its text made inert where the tracker
   * would act on it (GitLab's quick actions and mentions); answers the tracker comment's id.
   */
  comment(ctx: TrackerContext<V>, issue: string, comment: { author: string; body: string }): Promise<string>;
  /** The tracker issue's address for the timeline's link, without a call. */
  issueUrl(integration: IntegrationRecord<V>, issue: string): string | undefined;
  /**
   * Registers the hook through the vendor's API where the token allows it; answers the vendor's hook id,
   * and the secret its deliveries are signed with where the vendor chooses it (ClickUp), which then
   * replaces the hook's own.
   */
  register?(
    ctx: TrackerContext<V>,
    hook: { url: string; secret: string },
  ): Promise<string | { id: string; secret: string }>;
  /**
   * Deletes at the vendor what `register` made (the id it answered), with the integration's token: the
   * hook a new secret replaces or a removed integration leaves, which would otherwise keep sending
   * deliveries Snag refuses. One already gone at the vendor counts as deleted (registration.ts).
   */
  unregister?(ctx: TrackerContext<V>, registeredId: string): Promise<void>;
  /** Whether the integration has what write-back and re-reads need (token, project). */
  ready(integration: IntegrationRecord<V>): boolean;
}

/** A header by name, whatever case the gateway gave it. */
export const header = (headers: Record<string, string | undefined>, name: string) =>
  headers[name.toLowerCase()] ?? headers[name];
