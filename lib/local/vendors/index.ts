/**
 * The vendor fakes together (README "Vendor fakes"): one per integration of the catalogue that talks to a
 * vendor or a receiver (`fakeTable`), each on a loopback port (each shows what it received on `/_fake`),
 * and the configuration that points the functions at them.
 * `npm start` runs them unless SNAG_VENDOR_FAKES=0, giving its data dir: each fake gets the port it had last
 * time (when free) and the tokens it issued (vendors/saved.ts). A vendor the developer configured
 * (`realVendorsOf`) keeps its real settings: the functions talk to the real service, the others to the fakes.
 * The integration tests start them directly, on free ports and with nothing kept.
 */
import { VENDOR_FAKES_VARIABLE } from '#runtime/config';
import { startAsanaFake } from './asana';
import { startAzureFake } from './azure';
import { startClickupFake } from './clickup';
import { startDiscordFake } from './discord';
import type { Fake } from './fake';
import { startGithubFake } from './github';
import { startGitlabFake } from './gitlab';
import { startJiraFake } from './jira';
import { startLinearFake } from './linear';
import { type FakeName, fakeNames, loadSavedFakes, type SavedFakes } from './saved';
import { startSlackFake } from './slack';
import { startTeamsFake } from './teams';
import { startTrelloFake, trelloFakeApp } from './trello';
import { startWebhookFake } from './webhooks';

/** What the local stack knows of one integration's fake; the behaviour is the fake's own file. */
interface FakeEntry<F extends Fake, S extends string> {
  /** Its name in the banner and the port warnings. */
  title: string;
  start(port: number, saved: SavedFakes | undefined, opts: VendorFakesOptions): Promise<F>;
  /** The address an integration's screen names as the fake it talks to (functions/runtime/config.ts). */
  address(fake: F): string;
  /**
   * The settings that point the vendor somewhere (functions/runtime/config.ts and secrets.ts, README
   * "Configuration"), as the fake sets them. None where the client enters the address (Jira, the webhook
   * receiver): their fakes never stand in for anything the developer set.
   */
  settings: readonly S[];
  configure(fake: F): Record<S, string>;
  /** `npm start`'s banner line: where it is and how to use it. */
  note(fake: F): string;
}
const entry = <F extends Fake, S extends string = never>(e: FakeEntry<F, S>) => e;
const none = () => ({});

/** The one table of fakes, keyed by the catalogue's integrations that talk to a vendor or a receiver. */
export const fakeTable = {
  gitlab: entry({
    title: 'GitLab',
    start: (p) => startGitlabFake(p),
    address: (f) => f.url,
    settings: ['GITLAB_URL'],
    configure: (f) => ({ GITLAB_URL: f.url }),
    note: (f) => `GitLab ${f.url} (host empty = this)`,
  }),
  jira: entry({
    title: 'Jira',
    start: (p) => startJiraFake(p),
    address: (f) => f.url,
    settings: [],
    configure: none,
    note: (f) => `Jira ${f.url} (enter as host)`,
  }),
  slack: entry({
    title: 'Slack',
    start: (p, saved) => startSlackFake({ port: p, ...(saved ? { tokens: saved.slackTokens } : {}) }),
    address: (f) => f.url,
    settings: ['SLACK_CLIENT_ID', 'SLACK_CLIENT_SECRET', 'SLACK_API_URL', 'SLACK_AUTHORIZE_URL'],
    configure: (f) => ({
      SLACK_API_URL: f.apiUrl,
      SLACK_AUTHORIZE_URL: f.authorizeUrl,
      SLACK_CLIENT_ID: f.clientId,
      SLACK_CLIENT_SECRET: f.clientSecret,
    }),
    note: (f) => `Slack ${f.url}`,
  }),
  asana: entry({
    title: 'Asana',
    start: (p, saved, opts) =>
      startAsanaFake({
        port: p,
        ...(opts.asanaAccessTtlSeconds ? { accessTtlSeconds: opts.asanaAccessTtlSeconds } : {}),
        ...(saved ? { accessTokens: saved.asanaAccessTokens, refreshTokens: saved.asanaRefreshTokens } : {}),
      }),
    address: (f) => f.url,
    settings: ['ASANA_CLIENT_ID', 'ASANA_CLIENT_SECRET', 'ASANA_API_URL', 'ASANA_OAUTH_URL'],
    configure: (f) => ({
      ASANA_API_URL: f.apiUrl,
      ASANA_OAUTH_URL: f.oauthUrl,
      ASANA_CLIENT_ID: f.clientId,
      ASANA_CLIENT_SECRET: f.clientSecret,
    }),
    note: (f) => `Asana ${f.url}`,
  }),
  github: entry({
    title: 'GitHub',
    start: (p) => startGithubFake(p),
    address: (f) => f.url,
    settings: ['GITHUB_API_URL'],
    configure: (f) => ({ GITHUB_API_URL: f.apiUrl }),
    note: (f) => `GitHub ${f.url} (any token; repositories octo-org/website, octo-org/shop)`,
  }),
  linear: entry({
    title: 'Linear',
    start: (p) => startLinearFake(p),
    address: (f) => f.url,
    settings: ['LINEAR_API_URL'],
    configure: (f) => ({ LINEAR_API_URL: f.apiUrl }),
    note: (f) => `Linear ${f.url} (any API key)`,
  }),
  webhooks: entry({
    title: 'webhook receiver',
    start: (p) => startWebhookFake(p),
    address: (f) => `${f.url}/hook`,
    settings: [],
    configure: none,
    note: (f) => `webhook receiver ${f.url}/hook (enter as URL, any token)`,
  }),
  clickup: entry({
    title: 'ClickUp',
    start: (p) => startClickupFake(p),
    address: (f) => f.url,
    settings: ['CLICKUP_API_URL'],
    configure: (f) => ({ CLICKUP_API_URL: f.apiUrl }),
    note: (f) => `ClickUp ${f.url} (any pk_ token; lists Bugs and Inbox)`,
  }),
  teams: entry({
    title: 'Microsoft Teams',
    start: (p) => startTeamsFake(p),
    // The URL to paste (its `sig` fixed), as the screen's note says to enter it.
    address: (f) => f.webhookUrl,
    settings: [],
    configure: none,
    note: (f) => `Microsoft Teams ${f.url} (its page shows the workflow URL to paste)`,
  }),
  discord: entry({
    title: 'Discord',
    start: (p) => startDiscordFake(p),
    address: (f) => f.webhookUrl,
    settings: [],
    configure: none,
    note: (f) => `Discord ${f.url} (its page shows the webhook URL to paste)`,
  }),
  azure: entry({
    title: 'Azure DevOps',
    start: (p) => startAzureFake(p),
    address: (f) => f.orgUrl,
    settings: [],
    configure: none,
    note: (f) => `Azure DevOps ${f.orgUrl} (enter as organisation URL, any token)`,
  }),
  trello: entry({
    title: 'Trello',
    start: (p) => startTrelloFake(p),
    address: (f) => f.url,
    settings: ['TRELLO_API_URL'],
    configure: (f) => ({ TRELLO_API_URL: f.apiUrl }),
    note: (f) => `Trello ${f.url} (API key ${trelloFakeApp.key}, secret and a token on its page)`,
  }),
} satisfies { [N in FakeName]: FakeEntry<Fake, string> };
/** One entry, as the loops over all of them use it (each entry's own types are checked above). */
const entryOf = (n: FakeName) => fakeTable[n] as FakeEntry<Fake, string>;

type FakeTable = typeof fakeTable;
type FakeOf<N extends FakeName> = Awaited<ReturnType<FakeTable[N]['start']>>;
/** Every fake, by its integration's name. */
export type FakesByName = { [N in FakeName]: FakeOf<N> };

/** The settings that point each vendor somewhere, by the fake that would replace them (see `settings`). */
export const vendorSettings = Object.fromEntries(
  Object.entries(fakeTable).flatMap(([n, e]) => (e.settings.length ? [[n, e.settings]] : [])),
) as { [N in ConfigurableVendor]: FakeTable[N]['settings'] };

/** The vendors a developer may point at their real service (a fake with settings). */
export type ConfigurableVendor = {
  [N in FakeName]: FakeTable[N]['settings'] extends readonly [] ? never : N;
}[FakeName];

/**
 * The vendors with any of their settings set (the environment or `.env`, read before the fakes start): a
 * developer who set them means the real service, so those keep their settings and only the others use the
 * fakes.
 */
export function realVendorsOf(env: NodeJS.ProcessEnv): ConfigurableVendor[] {
  return (Object.keys(vendorSettings) as ConfigurableVendor[]).filter((vendor) =>
    vendorSettings[vendor].some((name) => (env[name] ?? '').trim() !== ''),
  );
}

export interface VendorFakes extends FakesByName {
  /**
   * The functions' configuration for these fakes (functions/runtime/config.ts and secrets.ts), without the
   * settings of the vendors in `real`. A fake without settings (Jira, webhooks) is an address the client
   * enters on its screen.
   */
  env: Record<string, string>;
  /** The vendors left on their real service (`VendorFakesOptions.real`): their fakes run but are not used. */
  real: ConfigurableVendor[];
  reset(): void;
  stop(): Promise<void>;
}

export interface VendorFakesOptions {
  asanaAccessTtlSeconds?: number;
  /** Keep ports and issued tokens in `<dataDir>/vendor-fakes.json` across restarts (`npm start`). */
  dataDir?: string;
  /** Where a remembered port that is taken now is reported. */
  warn?: (line: string) => void;
  /** Vendors that keep their real settings (`realVendorsOf`): neither configured nor listed as fakes. */
  real?: readonly ConfigurableVendor[];
}

const isPortTaken = (err: unknown) =>
  ['EADDRINUSE', 'EACCES'].includes((err as NodeJS.ErrnoException)?.code ?? '');

/** Starts on the remembered port; if something else holds it now, on a free one, and says what changed. */
async function onRememberedPort<T>(
  name: string,
  remembered: number | undefined,
  start: (port: number) => Promise<T>,
  warn: (line: string) => void,
): Promise<T> {
  if (!remembered) return start(0);
  try {
    return await start(remembered);
  } catch (err) {
    if (!isPortTaken(err)) throw err;
    const fake = await start(0);
    warn(
      `the ${name} fake's port ${remembered} is taken; it is on ${(fake as { url: string }).url} now: ` +
        'integrations saved with the old address need it entered again',
    );
    return fake;
  }
}

export async function startVendorFakes(opts: VendorFakesOptions = {}): Promise<VendorFakes> {
  const warn = opts.warn ?? (() => {});
  const saved: SavedFakes | undefined = opts.dataDir ? loadSavedFakes(opts.dataDir, warn) : undefined;
  const port = (name: FakeName) => saved?.ports[name];
  const started = await Promise.allSettled(
    fakeNames.map((n) =>
      onRememberedPort(entryOf(n).title, port(n), (p) => entryOf(n).start(p, saved, opts), warn),
    ),
  );
  const all = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const stop = () => Promise.allSettled(all.map((f) => f.stop())).then(() => {});
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) {
    await stop();
    throw (failed as PromiseRejectedResult).reason;
  }
  const fakes = Object.fromEntries(fakeNames.map((n, i) => [n, all[i]])) as unknown as FakesByName;
  const each = <T>(f: (entry: FakeEntry<Fake, string>, fake: Fake) => T) =>
    fakeNames.map((n) => [n, f(entryOf(n), fakes[n])] as const);
  saved?.savePorts(
    Object.fromEntries(each((_, f) => Number(new URL(f.url).port))) as Record<FakeName, number>,
  );
  const real = [...(opts.real ?? [])];
  const used = (n: string) => !real.includes(n as ConfigurableVendor);
  const settings = each((e, f) => e.configure(f)).filter(([n]) => used(n));
  const addresses = each((e, f) => e.address(f)).filter(([n]) => used(n));
  return {
    ...fakes,
    env: {
      ...Object.assign({}, ...settings.map(([, s]) => s)),
      // Which integration screens talk to a fake here, so they can say so (functions/runtime/config.ts).
      [VENDOR_FAKES_VARIABLE]: JSON.stringify(Object.fromEntries(addresses)),
    },
    real,
    reset: () => {
      for (const f of all) f.reset();
    },
    stop,
  };
}

/**
 * `npm start`'s banner lines for the vendors: each fake in use with how to use it, then the vendors left on
 * the real service with the setting that chose it, so nobody mistakes one for the other.
 */
export function vendorBanner(fakes: VendorFakes, env: NodeJS.ProcessEnv = {}): string[] {
  const real = new Set(fakes.real);
  const fakeLines = fakeNames
    .filter((n) => !real.has(n as ConfigurableVendor))
    .map((n) => entryOf(n).note(fakes[n]));
  const pad = '                 ';
  const realLines = fakes.real.map((vendor) => {
    const set = vendorSettings[vendor].filter((name) => (env[name] ?? '').trim() !== '');
    return `${entryOf(vendor).title}${set.length ? ` (${set.join(', ')} set)` : ''}`;
  });
  return [
    '  Vendor fakes   stand-ins on this machine, not the real services (SNAG_VENDOR_FAKES=0 for the real ones):',
    ...fakeLines.map((line) => pad + line),
    `${pad}each shows what it received on <its address>/_fake; addresses and issued tokens`,
    `${pad}are kept for the next start with this data dir (vendor-fakes.json)`,
    ...(realLines.length
      ? [`  Real vendors   the real services, as configured: ${realLines.join(', ')}`]
      : []),
  ];
}
