/**
 * The one table of tracker adapters (issue 24): every vendor in `trackerVendors` has its entry, so adding
 * GitHub or Linear is their name in contracts/sync.ts and their adapter here.
 */
import type { TrackerVendor } from '#contracts/sync';
import type { TrackerAdapter } from './adapter';
import { githubAdapter } from './github';
import { gitlabAdapter } from './gitlab';
import { jiraAdapter } from './jira';
import { linearAdapter } from './linear';

export const trackerAdapters: { [V in TrackerVendor]: TrackerAdapter<V> } = {
  gitlab: gitlabAdapter,
  jira: jiraAdapter,
  github: githubAdapter,
  linear: linearAdapter,
};

export const adapterOf = <V extends TrackerVendor>(vendor: V) => trackerAdapters[vendor] as TrackerAdapter<V>;
