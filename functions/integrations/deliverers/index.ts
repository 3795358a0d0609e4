/**
 * The one table of vendor deliverers, for the delivery run (integrations/delivery-run.ts; webhooks and email
 * are their own): keyed by the catalogue's vendors and typed exhaustive, so a vendor without its deliverer does not
 * compile.
 */
import type { VendorName } from '#contracts/integration-catalogue';
import type { Deliverer } from '../deliver';
import { deliverAsana } from './asana';
import { deliverAzure } from './azure';
import { deliverClickup } from './clickup';
import { deliverGithub } from './github';
import { deliverGitlab } from './gitlab';
import { deliverJira } from './jira';
import { deliverLinear } from './linear';
import { deliverSlack } from './slack';

export const vendorDeliverersBuiltIn: { [V in VendorName]: Deliverer<V> } = {
  gitlab: deliverGitlab,
  jira: deliverJira,
  slack: deliverSlack,
  asana: deliverAsana,
  github: deliverGithub,
  linear: deliverLinear,
  clickup: deliverClickup,
  azure: deliverAzure,
};
