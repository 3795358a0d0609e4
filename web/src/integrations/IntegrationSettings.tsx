/**
 * The settings form of one integration: the one table of forms, keyed by the catalogue of integrations
 * (contracts/integration-catalogue.ts) and typed exhaustive against it, so a new integration without its
 * form does not compile. Forms are shared where integrations are authorised alike (a typed token, OAuth).
 */
import type { ComponentType } from 'react';
import type { IntegrationName } from '#contracts/integration-catalogue';
import { AzureSettings } from './AzureSettings';
import { ChatWebhookSettings } from './ChatWebhookSettings';
import { ClickupSettings } from './ClickupSettings';
import { EmailSettings } from './EmailSettings';
import { GithubSettings } from './GithubSettings';
import type { ViewOf } from './model';
import { OAuthSettings } from './OAuthSettings';
import { TokenSettings } from './TokenSettings';
import { TrelloSettings } from './TrelloSettings';
import { WebhookSettings } from './WebhookSettings';

type SettingsForm<N extends IntegrationName> = ComponentType<{ projectId: string; view: ViewOf<N> }>;

export const settingsForms: { [N in IntegrationName]: SettingsForm<N> } = {
  email: EmailSettings,
  gitlab: TokenSettings,
  jira: TokenSettings,
  slack: OAuthSettings,
  asana: OAuthSettings,
  github: GithubSettings,
  linear: TokenSettings,
  webhooks: WebhookSettings,
  clickup: ClickupSettings,
  teams: ChatWebhookSettings,
  discord: ChatWebhookSettings,
  azure: AzureSettings,
  trello: TrelloSettings,
};

export function IntegrationSettings<N extends IntegrationName>({
  projectId,
  view,
}: {
  projectId: string;
  view: ViewOf<N>;
}) {
  const Form = settingsForms[view.name as N] as SettingsForm<N>;
  return <Form projectId={projectId} view={view} />;
}
