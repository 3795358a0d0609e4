/** The settings form of one integration, by its kind: email, a token (GitLab, Jira, Linear; GitHub its own), OAuth (Slack, Asana) or webhooks. */
import { EmailSettings } from './EmailSettings';
import { GithubSettings } from './GithubSettings';
import type { viewOf } from './model';
import { OAuthSettings } from './OAuthSettings';
import { TokenSettings } from './TokenSettings';
import { WebhookSettings } from './WebhookSettings';

export function IntegrationSettings({
  projectId,
  view,
}: {
  projectId: string;
  view: NonNullable<ReturnType<typeof viewOf>>;
}) {
  switch (view.name) {
    case 'email':
      return <EmailSettings projectId={projectId} view={view} />;
    case 'gitlab':
    case 'jira':
    case 'linear':
      return <TokenSettings projectId={projectId} view={view} />;
    case 'slack':
    case 'asana':
      return <OAuthSettings projectId={projectId} view={view} />;
    case 'github':
      return <GithubSettings projectId={projectId} view={view} />;
    case 'webhooks':
      return <WebhookSettings projectId={projectId} view={view} />;
  }
}
