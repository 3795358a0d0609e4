/**
 * The vendor fakes together (README "Vendor fakes"): GitLab, Jira, Slack with its OAuth, Asana with its
 * OAuth, a webhook receiver, GitHub and Linear (GraphQL), each on a loopback port (each shows what it received on `/_fake`), and the
 * configuration that points the functions at them.
 * `npm start` runs them unless SNAG_VENDOR_FAKES=0, giving its data dir: each fake gets the port it had last
 * time (when free) and the tokens it issued (vendors/saved.ts). A vendor the developer configured
 * (`realVendorsOf`) keeps its real settings: the functions talk to the real service, the others to the fakes.
 * The integration tests start them directly, on free ports and with nothing kept.
 */
import { VENDOR_FAKES_VARIABLE } from '#runtime/config';
import { type AsanaFake, startAsanaFake } from './asana';
import { type GithubFake, startGithubFake } from './github';
import { type GitlabFake, startGitlabFake } from './gitlab';
import { type JiraFake, startJiraFake } from './jira';
import { type LinearFake, startLinearFake } from './linear';
import { type FakeName, loadSavedFakes, type SavedFakes } from './saved';
import { type SlackFake, startSlackFake } from './slack';
import { startWebhookFake, type WebhookFake } from './webhooks';

/**
 * The settings that point a vendor somewhere (functions/runtime/config.ts and secrets.ts, README
 * "Configuration"), by the fake that would replace them. Jira and the webhook receiver have none: the client
 * enters their address, so their fakes never stand in for anything the developer set.
 */
export const vendorSettings = {
  gitlab: ['GITLAB_URL'],
  github: ['GITHUB_API_URL'],
  slack: ['SLACK_CLIENT_ID', 'SLACK_CLIENT_SECRET', 'SLACK_API_URL', 'SLACK_AUTHORIZE_URL'],
  asana: ['ASANA_CLIENT_ID', 'ASANA_CLIENT_SECRET', 'ASANA_API_URL', 'ASANA_OAUTH_URL'],
  linear: ['LINEAR_API_URL'],
} as const;

export type ConfigurableVendor = keyof typeof vendorSettings;

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

export interface VendorFakes {
  gitlab: GitlabFake;
  jira: JiraFake;
  slack: SlackFake;
  asana: AsanaFake;
  linear: LinearFake;
  /** A receiver for the Webhooks integration: a client enters `webhooks.url` + any path. */
  webhooks: WebhookFake;
  github: GithubFake;
  /**
   * The functions' configuration for these fakes (functions/runtime/config.ts and secrets.ts), without the
   * settings of the vendors in `real`. Jira has no default host: a client enters `jira.url` as the host on
   * the Jira screen.
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
  const started = await Promise.allSettled([
    onRememberedPort('GitLab', port('gitlab'), (p) => startGitlabFake(p), warn),
    onRememberedPort('Jira', port('jira'), (p) => startJiraFake(p), warn),
    onRememberedPort(
      'Slack',
      port('slack'),
      (p) => startSlackFake({ port: p, ...(saved ? { tokens: saved.slackTokens } : {}) }),
      warn,
    ),
    onRememberedPort(
      'Asana',
      port('asana'),
      (p) =>
        startAsanaFake({
          port: p,
          ...(opts.asanaAccessTtlSeconds ? { accessTtlSeconds: opts.asanaAccessTtlSeconds } : {}),
          ...(saved
            ? { accessTokens: saved.asanaAccessTokens, refreshTokens: saved.asanaRefreshTokens }
            : {}),
        }),
      warn,
    ),
    onRememberedPort('webhook receiver', port('webhooks'), (p) => startWebhookFake(p), warn),
    onRememberedPort('GitHub', port('github'), (p) => startGithubFake(p), warn),
    onRememberedPort('Linear', port('linear'), (p) => startLinearFake(p), warn),
  ]);
  const all = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const stop = () => Promise.allSettled(all.map((f) => f.stop())).then(() => {});
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) {
    await stop();
    throw (failed as PromiseRejectedResult).reason;
  }
  const [gitlab, jira, slack, asana, webhooks, github, linear] = all as [
    GitlabFake,
    JiraFake,
    SlackFake,
    AsanaFake,
    WebhookFake,
    GithubFake,
    LinearFake,
  ];
  const portOf = (f: { url: string }) => Number(new URL(f.url).port);
  saved?.savePorts({
    gitlab: portOf(gitlab),
    jira: portOf(jira),
    slack: portOf(slack),
    asana: portOf(asana),
    webhooks: portOf(webhooks),
    github: portOf(github),
    linear: portOf(linear),
  });
  const real = [...(opts.real ?? [])];
  // Exactly `vendorSettings`' names per vendor (the type checks it), so the choice and the env agree.
  const settings: { [V in ConfigurableVendor]: Record<(typeof vendorSettings)[V][number], string> } = {
    gitlab: { GITLAB_URL: gitlab.url },
    github: { GITHUB_API_URL: github.apiUrl },
    slack: {
      SLACK_API_URL: slack.apiUrl,
      SLACK_AUTHORIZE_URL: slack.authorizeUrl,
      SLACK_CLIENT_ID: slack.clientId,
      SLACK_CLIENT_SECRET: slack.clientSecret,
    },
    asana: {
      ASANA_API_URL: asana.apiUrl,
      ASANA_OAUTH_URL: asana.oauthUrl,
      ASANA_CLIENT_ID: asana.clientId,
      ASANA_CLIENT_SECRET: asana.clientSecret,
    },
    linear: { LINEAR_API_URL: linear.apiUrl },
  };
  const addresses: Record<string, string> = {
    gitlab: gitlab.url,
    jira: jira.url,
    slack: slack.url,
    asana: asana.url,
    webhooks: `${webhooks.url}/hook`,
    github: github.url,
    linear: linear.url,
  };
  const faked = <T>(byVendor: Record<string, T>) =>
    Object.fromEntries(Object.entries(byVendor).filter(([v]) => !real.includes(v as ConfigurableVendor)));
  return {
    gitlab,
    jira,
    slack,
    asana,
    linear,
    webhooks,
    github,
    env: {
      ...Object.assign({}, ...Object.values(faked(settings))),
      // Which integration screens talk to a fake here, so they can say so (functions/runtime/config.ts).
      [VENDOR_FAKES_VARIABLE]: JSON.stringify(faked(addresses)),
    },
    real,
    reset: () => {
      for (const f of all) f.reset();
    },
    stop,
  };
}

/** Names in the banner. */
const vendorNames: Record<ConfigurableVendor, string> = {
  gitlab: 'GitLab',
  github: 'GitHub',
  slack: 'Slack',
  asana: 'Asana',
  linear: 'Linear',
};

/**
 * `npm start`'s banner lines for the vendors: each fake in use with how to use it, then the vendors left on
 * the real service with the setting that chose it, so nobody mistakes one for the other.
 */
export function vendorBanner(fakes: VendorFakes, env: NodeJS.ProcessEnv = {}): string[] {
  const real = new Set(fakes.real);
  const used = (vendor: ConfigurableVendor, line: string) => (real.has(vendor) ? [] : [line]);
  const fakeLines = [
    ...used('gitlab', `GitLab ${fakes.gitlab.url} (host empty = this)`),
    `Jira ${fakes.jira.url} (enter as host)`,
    ...used('slack', `Slack ${fakes.slack.url}`),
    ...used('asana', `Asana ${fakes.asana.url}`),
    ...used('linear', `Linear ${fakes.linear.url} (any API key)`),
    `webhook receiver ${fakes.webhooks.url}/hook (enter as URL, any token)`,
    ...used('github', `GitHub ${fakes.github.url} (any token; repositories octo-org/website, octo-org/shop)`),
  ];
  const pad = '                 ';
  const realLines = fakes.real.map((vendor) => {
    const set = vendorSettings[vendor].filter((name) => (env[name] ?? '').trim() !== '');
    return `${vendorNames[vendor]}${set.length ? ` (${set.join(', ')} set)` : ''}`;
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
