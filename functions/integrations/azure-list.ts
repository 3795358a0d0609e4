/**
 * Azure DevOps' list call (`POST client/integration/azure/projects`, the catalogue's `list`): with the
 * organisation URL and the PAT as typed (or the stored one, masked, for the same URL), the organisation's
 * projects and the work item types of the chosen one, through the guarded client (the URL is the
 * client's). Success authorises, as Jira's list does: the chosen project kept when still listed (else the
 * first), the chosen type kept when the project has it (else Bug, else the first).
 */
import type { JiraProjectsAnswer, VendorListBody } from '#contracts/vendor-auth';
import { outboundFetch } from '#runtime/outbound';
import { authorizeIntegration, type IntegrationRecord, sentSecret } from './integration';
import * as azure from './vendors/azure';
import { type GuardedFetch, guardedHttp } from './vendors/http';

export async function azureProjects(
  userId: string,
  body: VendorListBody<'azure'>,
  owned: (siteId: string) => Promise<IntegrationRecord<'azure'>>,
  authorising: <T>(work: () => Promise<T>) => Promise<T>,
): Promise<JiraProjectsAnswer> {
  const current = await owned(body.siteId);
  const key = sentSecret('azure', current.data, body, 'key', 'key');
  return authorising(async () => {
    const auth = { base: azure.azureBase(body.host), token: key };
    const http = guardedHttp(outboundFetch() as GuardedFetch);
    const projects = await azure.listProjects(http, auth);
    const wanted = body.projectId ?? current.data.id;
    const id = projects.some((p) => p.id === wanted) ? wanted : (projects[0]?.id ?? '');
    const types = id ? await azure.listTypes(http, auth, id) : [];
    const names = types.map((t) => t.name);
    const issueId = [current.data.issueId, 'Bug'].find((t) => names.includes(t)) ?? names[0] ?? 'Bug';
    await authorizeIntegration(body.siteId, userId, 'azure', {
      authorized: 1,
      data: { host: body.host, key, id, name: projects.find((p) => p.id === id)?.name ?? '', issueId },
    });
    return { projects, issueTypes: types.map((t) => ({ id: t.name, name: t.name })) };
  });
}
