/**
 * The one table of vendor deliverers, for the delivery run (integrations/delivery-run.ts; webhooks and email
 * are their own): keyed by the catalogue's vendors and typed exhaustive, so a vendor without its deliverer does not
 * compile.
 */
import type { IntegrationName } from '#contracts/integration-catalogue';
import type { Deliverer } from '../deliver';
import { deliverAsana } from './asana';
import { deliverAzure } from './azure';
import { deliverClickup } from './clickup';
import { deliverDiscord } from './discord';
import { deliverGithub } from './github';
import { deliverGitlab } from './gitlab';
import { deliverJira } from './jira';
import { deliverLinear } from './linear';
import { deliverSlack } from './slack';
import { deliverTeams } from './teams';
import { deliverTrello } from './trello';

/** Every integration but the two delivery-run.ts keeps itself (email, webhooks): token, OAuth and post-only ones. */
type BuiltIn = Exclude<IntegrationName, 'email' | 'webhooks'>;

export const vendorDeliverersBuiltIn: { [V in BuiltIn]: Deliverer<V> } = {
  gitlab: deliverGitlab,
  jira: deliverJira,
  slack: deliverSlack,
  asana: deliverAsana,
  github: deliverGithub,
  linear: deliverLinear,
  clickup: deliverClickup,
  teams: deliverTeams,
  discord: deliverDiscord,
  azure: deliverAzure,
  trello: deliverTrello,
};
