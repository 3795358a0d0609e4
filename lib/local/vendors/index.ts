/**
 * The vendor fakes together (README "Vendor fakes"): GitLab, Jira, Slack with its OAuth, Asana with its
 * OAuth and a webhook receiver, each on a free loopback port (each shows what it received on `/_fake`),
 * and the configuration that points the functions at them.
 * `npm start` runs them with SNAG_VENDOR_FAKES=1; the integration tests start them directly.
 */
import { type AsanaFake, startAsanaFake } from './asana';
import { type GitlabFake, startGitlabFake } from './gitlab';
import { type JiraFake, startJiraFake } from './jira';
import { type SlackFake, startSlackFake } from './slack';
import { startWebhookFake, type WebhookFake } from './webhooks';

export interface VendorFakes {
  gitlab: GitlabFake;
  jira: JiraFake;
  slack: SlackFake;
  asana: AsanaFake;
  /** A receiver for the Webhooks integration: a client enters `webhooks.url` + any path. */
  webhooks: WebhookFake;
  /**
   * The functions' configuration for these fakes (functions/core/config.ts and secrets.ts). Jira has no
   * default host: a client enters `jira.url` as the host on the Jira screen.
   */
  env: Record<string, string>;
  reset(): void;
  stop(): Promise<void>;
}

export async function startVendorFakes(opts: { asanaAccessTtlSeconds?: number } = {}): Promise<VendorFakes> {
  const started = await Promise.allSettled([
    startGitlabFake(),
    startJiraFake(),
    startSlackFake(),
    startAsanaFake(opts.asanaAccessTtlSeconds ? { accessTtlSeconds: opts.asanaAccessTtlSeconds } : {}),
    startWebhookFake(),
  ]);
  const all = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const stop = () => Promise.allSettled(all.map((f) => f.stop())).then(() => {});
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) {
    await stop();
    throw (failed as PromiseRejectedResult).reason;
  }
  const [gitlab, jira, slack, asana, webhooks] = all as [
    GitlabFake,
    JiraFake,
    SlackFake,
    AsanaFake,
    WebhookFake,
  ];
  return {
    gitlab,
    jira,
    slack,
    asana,
    webhooks,
    env: {
      GITLAB_URL: gitlab.url,
      SLACK_API_URL: slack.apiUrl,
      SLACK_AUTHORIZE_URL: slack.authorizeUrl,
      SLACK_CLIENT_ID: slack.clientId,
      SLACK_CLIENT_SECRET: slack.clientSecret,
      ASANA_API_URL: asana.apiUrl,
      ASANA_OAUTH_URL: asana.oauthUrl,
      ASANA_CLIENT_ID: asana.clientId,
      ASANA_CLIENT_SECRET: asana.clientSecret,
    },
    reset: () => {
      for (const f of all) f.reset();
    },
    stop,
  };
}
