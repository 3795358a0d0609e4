/** Teams, members, invitations (issue 22, docs/data-model.md 4.12): the first increment's calls. */
import { apiFunction, type DomainManifest } from '#contracts/manifest';
import { teamParams, teamUpdateSchema } from '#contracts/teams';

export const teamsApi = apiFunction({
  resource: 'teams',
  needs: { table: 'readwrite' },
  routes: [
    { method: 'GET', path: '/api/client/teams', op: 'list', session: true, access: { scope: 'account' } },
    {
      method: 'GET',
      path: '/api/client/team/{teamId}',
      op: 'get',
      session: true,
      access: { scope: 'team', action: 'team.read', from: 'params.teamId' },
      params: teamParams,
    },
    {
      method: 'PATCH',
      path: '/api/client/team/{teamId}',
      op: 'rename',
      session: true,
      access: { scope: 'team', action: 'team.rename', from: 'params.teamId' },
      params: teamParams,
      body: teamUpdateSchema,
    },
  ],
});

export const teams = {
  domain: 'teams',
  api: [teamsApi],
} satisfies DomainManifest;
