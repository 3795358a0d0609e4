/** The vendor deliverers, for functions/consumers/delivery.ts (webhooks and email are their own). */
import { deliverAsana } from './asana';
import { deliverGithub } from './github';
import { deliverGitlab } from './gitlab';
import { deliverJira } from './jira';
import { deliverLinear } from './linear';
import { deliverSlack } from './slack';

export const vendorDeliverersBuiltIn = {
  gitlab: deliverGitlab,
  jira: deliverJira,
  slack: deliverSlack,
  asana: deliverAsana,
  github: deliverGithub,
  linear: deliverLinear,
};
