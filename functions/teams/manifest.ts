/** Teams, members, invitations (issue 22, docs/data-model.md 4.12). */

import { auditParams, auditQuerySchema } from '#contracts/audit-schemas';
import {
  dataEraseBody,
  dataExportParams,
  dataRequestBody,
  dataRequestParams,
} from '#contracts/data-requests';
import { apiFunction, bucketPrefixes, type DomainManifest } from '#contracts/manifest';
import {
  invitationParams,
  invitationSchema,
  invitationTokenSchema,
  memberParams,
  memberUpdateSchema,
  teamCreateSchema,
  teamParams,
  teamUpdateSchema,
  transferSchema,
} from '#contracts/teams';
import { tokenCreateSchema, tokenParams } from '#contracts/tokens';
import { privacyQueue } from './queues';

// Mail for invitations; a member who leaves starts the job that signs their work "former member" (privacy).
export const teamsApi = apiFunction({
  resource: 'teams',
  needs: { table: 'readwrite', mail: true, sendTo: ['fanout', 'privacy'] },
  routes: [
    { method: 'GET', path: '/api/client/teams', op: 'list', session: true, access: { scope: 'account' } },
    {
      method: 'POST',
      path: '/api/client/teams',
      op: 'create',
      session: true,
      access: { scope: 'account' },
      body: teamCreateSchema,
    },
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
    {
      method: 'POST',
      path: '/api/client/team/{teamId}/invitations',
      op: 'invite',
      session: true,
      access: { scope: 'team', action: 'team.members', from: 'params.teamId' },
      params: teamParams,
      body: invitationSchema,
    },
    {
      method: 'DELETE',
      path: '/api/client/team/{teamId}/invitations/{id}',
      op: 'revoke',
      session: true,
      access: { scope: 'team', action: 'team.members', from: 'params.teamId' },
      params: invitationParams,
    },
    {
      method: 'PATCH',
      path: '/api/client/team/{teamId}/members/{userId}',
      op: 'updateMember',
      session: true,
      access: { scope: 'team', action: 'team.members', from: 'params.teamId' },
      params: memberParams,
      body: memberUpdateSchema,
    },
    {
      method: 'DELETE',
      path: '/api/client/team/{teamId}/members/{userId}',
      op: 'removeMember',
      session: true,
      access: { scope: 'team', action: 'team.members', from: 'params.teamId' },
      // Removing another member; removing oneself is leaving (team.leave), which the operation tells apart.
      params: memberParams,
    },
    {
      method: 'POST',
      path: '/api/client/team/{teamId}/transfer',
      op: 'transfer',
      session: true,
      access: { scope: 'team', action: 'team.transfer', from: 'params.teamId' },
      params: teamParams,
      body: transferSchema,
    },
    {
      method: 'POST',
      path: '/api/client/invitation/accept',
      op: 'accept',
      session: true,
      access: { scope: 'account' },
      body: invitationTokenSchema,
    },
    // Public: the invitation page shows who invites whom before the visitor signs in (rate limited per source).
    {
      method: 'POST',
      path: '/api/invitation/view',
      op: 'view',
      session: false,
      body: invitationTokenSchema,
    },
  ],
});

/** The team's API tokens (issue 25, docs/api.md): OWNER and ADMIN, through the policy's `team.tokens`. */
export const tokensApi = apiFunction({
  resource: 'tokens',
  needs: { table: 'readwrite' },
  routes: [
    {
      method: 'GET',
      path: '/api/client/team/{teamId}/tokens',
      op: 'list',
      session: true,
      access: { scope: 'team', action: 'team.tokens', from: 'params.teamId' },
      params: teamParams,
    },
    {
      method: 'POST',
      path: '/api/client/team/{teamId}/tokens',
      op: 'create',
      session: true,
      access: { scope: 'team', action: 'team.tokens', from: 'params.teamId' },
      params: teamParams,
      body: tokenCreateSchema,
    },
    {
      method: 'DELETE',
      path: '/api/client/team/{teamId}/tokens/{id}',
      op: 'revoke',
      session: true,
      access: { scope: 'team', action: 'team.tokens', from: 'params.teamId' },
      params: tokenParams,
    },
  ],
});

/**
 * The team's audit log (issue 35, contracts/audit.ts): OWNER and ADMIN read it, through `team.audit`.
 * Append-only for the application: these are its only routes, both GET, and this function's table grant
 * is read-only, so no request through it can edit or delete an entry; entries are written only by
 * `auditPut`/`recordAudit` (teams/audit.ts) inside the changes they record (a unit test walks the table).
 */
export const auditApi = apiFunction({
  resource: 'audit',
  needs: { table: 'read' },
  routes: [
    {
      method: 'GET',
      path: '/api/client/team/{teamId}/audit',
      op: 'list',
      session: true,
      access: { scope: 'team', action: 'team.audit', from: 'params.teamId' },
      params: auditParams,
      query: auditQuerySchema,
    },
    {
      method: 'GET',
      path: '/api/client/team/{teamId}/audit.csv',
      op: 'csv',
      session: true,
      access: { scope: 'team', action: 'team.audit', from: 'params.teamId' },
      params: auditParams,
      query: auditQuerySchema,
    },
  ],
});

/**
 * Requests about a person's data (issues/data-requests.ts): find, export and erase what a reporter sent to
 * the team. OWNER and ADMIN, through `team.audit`: those who read who did what with people's data are those
 * who answer for it (decision DR-2). Erasing deletes the team's stored objects; an export is a job handed to
 * the privacy queue (teams/queues.ts), whose ZIP this function only signs a link to.
 */
export const privacyApi = apiFunction({
  resource: 'privacy',
  needs: {
    table: 'readwrite',
    objects: { read: [bucketPrefixes.exports], delete: [bucketPrefixes.stored] },
    sendTo: ['privacy'],
    timeoutSeconds: 28,
    memoryMb: 1024,
  },
  routes: [
    {
      method: 'POST',
      path: '/api/client/team/{teamId}/privacy/lookup',
      op: 'lookup',
      session: true,
      access: { scope: 'team', action: 'team.audit', from: 'params.teamId' },
      params: dataRequestParams,
      body: dataRequestBody,
    },
    {
      method: 'POST',
      path: '/api/client/team/{teamId}/privacy/export',
      op: 'startExport',
      session: true,
      access: { scope: 'team', action: 'team.audit', from: 'params.teamId' },
      params: dataRequestParams,
      body: dataRequestBody,
    },
    {
      method: 'GET',
      path: '/api/client/team/{teamId}/privacy/export/{id}',
      op: 'exportStatus',
      session: true,
      access: { scope: 'team', action: 'team.audit', from: 'params.teamId' },
      params: dataExportParams,
    },
    {
      method: 'POST',
      path: '/api/client/team/{teamId}/privacy/erase',
      op: 'erase',
      session: true,
      access: { scope: 'team', action: 'team.audit', from: 'params.teamId' },
      params: dataRequestParams,
      body: dataEraseBody,
    },
  ],
});

export const teams = {
  domain: 'teams',
  api: [teamsApi, tokensApi, auditApi, privacyApi],
  queues: { privacy: privacyQueue },
} satisfies DomainManifest;
