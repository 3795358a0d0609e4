/**
 * The setup and readings the two-way tracker sync tests share (test/integration/tracker-sync*.test.ts):
 * a local stack with the vendor fakes and quick queue retries, switching a tracker on as its settings
 * screen does, and reading an issue, its timeline and its status the way the dashboard does.
 */
import { beforeAll, expect } from 'vitest';
import type { IntegrationName, TrackerVendor } from '#contracts/integration-names';
import type { IssueAnswer } from '#contracts/review';
import type { TimelineEntry, TimelinePage } from '#contracts/triage';
import type { VendorFakes } from '../../lib/local/vendors';
import { eventually } from './local-stack';
import { type Site, storedIntegration } from './sites';
import { setUpTestStack } from './stack-fixture';
import { fileReport } from './widget';

/** The page the tests' reports come from. */
export const ORIGIN = 'https://shop.example';

/**
 * A local stack with the vendor fakes whose delivery and tracker queues retry after 1 s, started before
 * the file's tests and stopped after them. Call at the top level; read `stack`/`fakes` inside tests.
 * Retries come through the backoff; the visibility timeout stays longer than a delivery takes, so a slow
 * receive on a busy machine is not handed out a second time while it still runs.
 */
export function setUpTrackerSync() {
  const suite = {
    stack: setUpTestStack({
      vendorFakes: true,
      queues: {
        delivery: { visibilityTimeoutSeconds: 30, retryDelaysSeconds: [1, 1, 1, 1] },
        tracker: { visibilityTimeoutSeconds: 30, retryDelaysSeconds: [1, 1, 1, 1] },
      },
    }),
    fakes: undefined as unknown as VendorFakes,
    /**
     * Files a report on `site` (a visitor of ORIGIN) and waits until it is delivered to `vendor`: the
     * tracker's issue (what `find` finds for the Snag issue's number) and the Snag issue's
     * `<vendor>_status` passed, which the delivery writes with the link tracker issue → Snag issue.
     */
    async delivered<T>(
      site: Site,
      vendor: TrackerVendor,
      fields: { msg: string; title: string },
      find: (n: number) => T | undefined,
    ): Promise<{ n: number; created: T }> {
      const n = await fileReport(suite.stack.url, site.id, ORIGIN, { fields });
      const created = await eventually(async () => find(n), 30_000, `the ${vendor} issue`);
      await eventually(
        async () => ((await issue(site, n))[`${vendor}_status`] === 2 ? true : undefined),
        30_000,
        'passed',
      );
      return { n, created };
    },
  };
  beforeAll(async () => {
    if (!suite.stack.vendorFakes) throw new Error('the local stack did not start the vendor fakes');
    suite.fakes = suite.stack.vendorFakes;
  }, 120_000);
  return suite;
}

// biome-ignore lint/suspicious/noExplicitAny: answers are checked by the assertions themselves.
export const msgOf = (r: { body: unknown }): any => (r.body as { msg?: unknown }).msg;

/**
 * Switches `vendor` on for `site` with its data (the one the authorisation stored, merged with `data`)
 * as the settings screen's save does, and email off, so that only the tracker is delivered to.
 */
export async function switchOn(
  site: Site,
  vendor: IntegrationName,
  data: Record<string, unknown>,
  fields: { authorized?: 1 } = {},
) {
  const current = await storedIntegration(site, vendor);
  const saved = await site.client.patch(`/api/client/integration/${site.id}`, [
    { name: vendor, active: 1, ...fields, data: { ...current.data, ...data } },
  ]);
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  await site.client.patch(`/api/client/integration/${site.id}`, [{ name: 'email', active: 0, data: {} }]);
}

export const issue = async (site: Site, n: number) =>
  msgOf(await site.client.get(`/api/client/website/${site.id}/request/${n}`)) as IssueAnswer;

export async function timeline(site: Site, n: number) {
  const res = await site.client.get<TimelinePage<TimelineEntry>>(
    `/api/client/website/${site.id}/request/${n}/activity?limit=100`,
  );
  return (msgOf(res) as TimelinePage<TimelineEntry>).entries;
}

/** The issue's status changes, oldest first. */
export const statuses = async (site: Site, n: number) =>
  (await timeline(site, n)).filter((e) => e.type === 'activity' && e.kind === 'status');

/** The issue's comments, oldest first. */
export const comments = async (site: Site, n: number) =>
  (await timeline(site, n)).filter((e) => e.type === 'comment') as Array<
    TimelineEntry & { body: string; visibility: string }
  >;

export const statusBecomes = (site: Site, n: number, status: string) =>
  eventually(
    async () => ((await issue(site, n)).status === status ? true : undefined),
    30_000,
    `status ${status}`,
  );

/** Lets the hooks the fakes sent be answered and what they queued be applied (or dropped). */
export const quiet = async (settle: () => Promise<unknown> = async () => {}) => {
  await settle();
  await new Promise((r) => setTimeout(r, 2500));
  await settle();
};
