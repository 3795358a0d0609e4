/**
 * The vendor fakes together (README "Vendor fakes"): GitLab, Jira, Slack with its OAuth, Asana with its
 * OAuth, a webhook receiver, GitHub and Linear (GraphQL), each on a loopback port (each shows what it received on `/_fake`), and the
 * configuration that points the functions at them.
 * `npm start` runs them unless SNAG_VENDOR_FAKES=0, giving its data dir: each fake gets the port it had last
 * time (when free) and the tokens it issued (vendors/saved.ts). The integration tests start them directly,
 * on free ports and with nothing kept.
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
   * The functions' configuration for these fakes (functions/runtime/config.ts and secrets.ts). Jira has no
   * default host: a client enters `jira.url` as the host on the Jira screen.
   */
  env: Record<string, string>;
  reset(): void;
  stop(): Promise<void>;
}

export interface VendorFakesOptions {
  asanaAccessTtlSeconds?: number;
  /** Keep ports and issued tokens in `<dataDir>/vendor-fakes.json` across restarts (`npm start`). */
  dataDir?: string;
  /** Where a remembered port that is taken now is reported. */
  warn?: (line: string) => void;
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
  return {
    gitlab,
    jira,
    slack,
    asana,
    linear,
    webhooks,
    github,
    env: {
      GITLAB_URL: gitlab.url,
      GITHUB_API_URL: github.apiUrl,
      SLACK_API_URL: slack.apiUrl,
      SLACK_AUTHORIZE_URL: slack.authorizeUrl,
      SLACK_CLIENT_ID: slack.clientId,
      SLACK_CLIENT_SECRET: slack.clientSecret,
      ASANA_API_URL: asana.apiUrl,
      ASANA_OAUTH_URL: asana.oauthUrl,
      ASANA_CLIENT_ID: asana.clientId,
      ASANA_CLIENT_SECRET: asana.clientSecret,
      LINEAR_API_URL: linear.apiUrl,
      // Which integration screens talk to a fake here, so they can say so (functions/runtime/config.ts).
      [VENDOR_FAKES_VARIABLE]: JSON.stringify({
        gitlab: gitlab.url,
        jira: jira.url,
        slack: slack.url,
        asana: asana.url,
        webhooks: `${webhooks.url}/hook`,
        github: github.url,
        linear: linear.url,
      }),
    },
    reset: () => {
      for (const f of all) f.reset();
    },
    stop,
  };
}
