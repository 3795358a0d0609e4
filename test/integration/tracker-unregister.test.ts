/**
 * GitHub, GitLab and Linear delete the hook Snag registered through their API, as Azure DevOps, ClickUp
 * and Trello do (sync/registration.ts): when a new secret replaces it and when the integration is
 * removed, with the integration's token, through the local stack and the vendors' fakes. A hook someone
 * already deleted at the vendor counts as deleted; a vendor that cannot be reached does not stop the
 * removal in Snag, and the hook left there is logged.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { HookAnswer } from '#contracts/sync';
import { resetConfig } from '#runtime/config';
import { newSite, type Site, storedIntegration } from '../support/sites';
import { msgOf, setUpTrackerSync, switchOn } from '../support/tracker-sync-fixture';

const sync = setUpTrackerSync();

type Vendor = 'github' | 'gitlab' | 'linear';

/** Per vendor: how its screen authorises, the hooks its fake holds, and the path its delete call takes. */
const vendors: Record<
  Vendor,
  {
    authorize: (site: Site) => Promise<{ status: number; body: unknown }>;
    data: Record<string, unknown>;
    hooks: () => Array<{ id: string | number; url: string; secret: string }>;
    /** Deletes the hook at the vendor by hand (someone did it on the vendor's site). */
    forget: (id: string) => void;
    deletePath: RegExp;
  }
> = {
  github: {
    authorize: (site) =>
      site.client.post('/api/client/integration/github/repos', {
        siteId: site.id,
        key: 'github_pat_11AAAunreg0123456789',
      }),
    data: { id: 'octo-org/shop' },
    hooks: () => sync.fakes.github.hooks,
    forget: (id) => drop(sync.fakes.github.hooks, id),
    deletePath: /^\/repos\/octo-org\/shop\/hooks\/\d+$/,
  },
  gitlab: {
    authorize: (site) =>
      site.client.post('/api/client/integration/gitlab/projects', {
        siteId: site.id,
        host: '',
        key: 'glpat-unreg',
      }),
    data: { id: '101' },
    hooks: () => sync.fakes.gitlab.hooks.map((h) => ({ ...h, secret: h.token })),
    forget: (id) => drop(sync.fakes.gitlab.hooks, id),
    deletePath: /^\/api\/v4\/projects\/101\/hooks\/\d+$/,
  },
  linear: {
    authorize: (site) =>
      site.client.post('/api/client/integration/linear/teams', {
        siteId: site.id,
        key: 'lin_api_unreg0123456789',
      }),
    data: {},
    hooks: () => sync.fakes.linear.webhooks.map((w) => ({ ...w, secret: w.secret ?? '' })),
    forget: (id) => drop(sync.fakes.linear.webhooks, id),
    deletePath: /\/graphql$/,
  },
};

function drop(list: Array<{ id: string | number }>, id: string) {
  const at = list.findIndex((h) => String(h.id) === id);
  if (at >= 0) list.splice(at, 1);
}

/** A new project with `vendor` authorised, switched on and its hook registered at the vendor. */
async function registered(vendor: Vendor) {
  const site = await newSite(sync.stack.url, 'BASIC_PLAN');
  const listed = await vendors[vendor].authorize(site);
  expect(listed.status, JSON.stringify(listed.body)).toBe(200);
  await switchOn(site, vendor, vendors[vendor].data, { authorized: 1 });
  const made = await site.client.post(`/api/client/integration/${vendor}/hook/${site.id}/register`);
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  const hook: HookAnswer = msgOf(made);
  expect(hook.registered?.id).toBeTruthy();
  return { site, hook, atVendor: () => vendors[vendor].hooks().filter((h) => h.url === hook.url) };
}

const remove = (site: Site, vendor: Vendor) =>
  site.client.delete(`/api/client/integration/${vendor}/authentication/${site.id}`);

const shown = async (site: Site, vendor: Vendor): Promise<HookAnswer> =>
  msgOf(await site.client.get(`/api/client/integration/${vendor}/hook/${site.id}`));

/** The warn lines logged while `run` runs (warn and above go to stderr). */
async function warnings(run: () => Promise<void>): Promise<string> {
  const lines: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk, ...rest) => {
    lines.push(String(chunk));
    return write(chunk, ...(rest as []));
  });
  const level = process.env.LOG_LEVEL;
  process.env.LOG_LEVEL = 'warn';
  resetConfig();
  try {
    await run();
  } finally {
    if (level === undefined) delete process.env.LOG_LEVEL;
    else process.env.LOG_LEVEL = level;
    resetConfig();
    spy.mockRestore();
  }
  return lines.join('');
}

const LEFT = 'a registered hook was left at the vendor';

afterEach(() => vi.restoreAllMocks());

describe.each(['github', 'gitlab', 'linear'] as const)('%s: the registered hook', (vendor) => {
  it('a new secret registers it again with the new secret and deletes the old one at the vendor; removing the integration deletes it', async () => {
    const { site, hook, atVendor } = await registered(vendor);
    const before = atVendor();
    expect(before.map((h) => String(h.id))).toEqual([hook.registered?.id]);

    const renewed = await site.client.post(`/api/client/integration/${vendor}/hook/${site.id}/regenerate`);
    expect(renewed.status, JSON.stringify(renewed.body)).toBe(200);
    const now: HookAnswer = msgOf(renewed);
    const after = atVendor();
    expect(after).toHaveLength(1);
    expect(String(after[0]?.id)).toBe(now.registered?.id);
    expect(now.registered?.id).not.toBe(hook.registered?.id);
    expect(after[0]?.secret).toBe(now.secret);

    const removed = await remove(site, vendor);
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect(atVendor()).toEqual([]);
    expect((await shown(site, vendor)).registered).toBeNull();
  });

  it('one already deleted at the vendor counts as deleted: the removal succeeds and nothing is logged as left', async () => {
    const { site, hook, atVendor } = await registered(vendor);
    vendors[vendor].forget(String(hook.registered?.id));
    expect(atVendor()).toEqual([]);
    const calls = sync.fakes[vendor].requests.length;
    let removed: { status: number; body: unknown } = { status: 0, body: null };
    const logged = await warnings(async () => {
      removed = await remove(site, vendor);
    });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    // The delete was asked for (and answered not found), not skipped.
    expect(
      sync.fakes[vendor].requests.slice(calls).some((r) => vendors[vendor].deletePath.test(r.path)),
    ).toBe(true);
    expect(logged).not.toContain(LEFT);
    expect((await shown(site, vendor)).registered).toBeNull();
  });

  it('the vendor down: the integration is still removed in Snag, and the hook left at the vendor is logged', async () => {
    const { site, hook, atVendor } = await registered(vendor);
    sync.fakes[vendor].fail({ match: vendors[vendor].deletePath, reply: { status: 503, text: 'down' } });
    let removed: { status: number; body: unknown } = { status: 0, body: null };
    const logged = await warnings(async () => {
      removed = await remove(site, vendor);
    });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    const line = logged.split('\n').find((l) => l.includes(LEFT));
    expect(line, logged).toBeDefined();
    expect(line).toContain(vendor);
    expect(line).toContain(String(hook.registered?.id));
    // Still there (the vendor never heard of the removal); Snag forgot it with the token.
    expect(atVendor().map((h) => String(h.id))).toEqual([hook.registered?.id]);
    expect((await shown(site, vendor)).registered).toBeNull();
    expect(await storedIntegration(site, vendor)).toMatchObject({ authorized: 0, active: 0 });
  });
});
