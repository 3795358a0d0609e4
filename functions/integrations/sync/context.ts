/**
 * What the sync's two directions both need: whether a project's tracker integration syncs now (active,
 * allowed by the owner's plan, with what its adapter needs), and the adapter's context for it.
 */
import type { TrackerVendor } from '#contracts/sync';
import { getItems } from '#runtime/db';
import { outboundFetch } from '#runtime/outbound';
import { planOfProject, projectKey, toProject } from '../../projects/project';
import { allowedByPlan, type IntegrationRecord, integrationKey, toIntegration } from '../integration';
import { type GuardedFetch, guardedHttp } from '../vendors/http';
import type { TrackerContext } from './adapter';
import { adapterOf } from './adapters';

/** The integration when it syncs now; null when it is off, lost to the plan, or not set up. */
export async function syncingIntegration<V extends TrackerVendor>(
  projectId: string,
  vendor: V,
): Promise<IntegrationRecord<V> | null> {
  const [meta, item] = await getItems([projectKey(projectId), integrationKey(projectId, vendor)]);
  if (!meta || !item) return null;
  const project = toProject(meta);
  const integration = toIntegration(item) as IntegrationRecord<V>;
  const on =
    integration.active === 1 &&
    !!project.activeIntegrations?.has(vendor) &&
    allowedByPlan(vendor, planOfProject(project)) &&
    adapterOf(vendor).ready(integration);
  return on ? integration : null;
}

/** The adapter's context: the integration and the outbound guard's fetch (the client's own host). */
export const trackerContext = <V extends TrackerVendor>(
  integration: IntegrationRecord<V>,
): TrackerContext<V> => ({
  integration,
  http: guardedHttp(outboundFetch() as GuardedFetch),
});
