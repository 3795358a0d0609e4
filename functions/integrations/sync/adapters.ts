/**
 * The one table of tracker adapters (issue 24): keyed by the catalogue's trackers (`tracker: true` in
 * contracts/integration-catalogue.ts) and typed exhaustive, so a tracker without its adapter does not compile.
 */
import type { TrackerVendor } from '#contracts/sync';
import type { TrackerAdapter } from './adapter';
import { azureAdapter } from './azure';
import { clickupAdapter } from './clickup';
import { githubAdapter } from './github';
import { gitlabAdapter } from './gitlab';
import { jiraAdapter } from './jira';
import { linearAdapter } from './linear';
import { trelloAdapter } from './trello';

export const trackerAdapters: { [V in TrackerVendor]: TrackerAdapter<V> } = {
  gitlab: gitlabAdapter,
  jira: jiraAdapter,
  github: githubAdapter,
  linear: linearAdapter,
  clickup: clickupAdapter,
  azure: azureAdapter,
  trello: trelloAdapter,
};

export const adapterOf = <V extends TrackerVendor>(vendor: V) => trackerAdapters[vendor] as TrackerAdapter<V>;
