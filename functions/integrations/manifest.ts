/**
 * Integrations (issue 11): their API functions, and the queues of the async path of DESIGN.md section 2
 * (`issue.created` → fan-out → one delivery per integration), declared in queues.ts beside this file. The
 * consumers are functions/consumers/<queue>.ts.
 */
import * as z from 'zod';
import { integrationSaveSchema, syncRequestSchema } from '#contracts/integrations';
import { apiFunction, bucketPrefixes, type DomainManifest } from '#contracts/manifest';
import { projectIdParam } from '#contracts/schemas';
import { hookParamsSchema, trackerVendors } from '#contracts/sync';
import {
  oauthExchangeSchema,
  oauthSiteParams,
  vendorListBody,
  vendorListParams,
  vendorSiteParams,
} from '#contracts/vendor-auth';
import { deliveryQueue, fanoutQueue, trackerQueue } from './queues';

const site = z.object({ siteId: projectIdParam });

// Saves integrations (with META's activeIntegrations), syncs tickets (fan-out messages), and answers
// the signed file links of deliveries with a short presigned GET (links.ts; secrets for its key).
export const integrationsApi = apiFunction({
  resource: 'integrations',
  needs: {
    table: 'readwrite',
    sendTo: ['fanout'],
    secrets: true,
    objects: { read: [bucketPrefixes.stored] },
  },
  routes: [
    {
      method: 'PATCH',
      path: '/api/client/integration/{siteId}',
      op: 'save',
      session: true,
      access: { scope: 'project', action: 'integrations', from: 'params.siteId' },
      params: site,
      body: integrationSaveSchema,
      context: 'integrationSave',
    },
    {
      method: 'PATCH',
      path: '/api/client/integration/sync/{siteUuid}',
      op: 'sync',
      session: true,
      access: { scope: 'project', action: 'triage', from: 'params.siteUuid' },
      params: z.object({ siteUuid: projectIdParam }),
      body: syncRequestSchema,
    },
    {
      method: 'GET',
      path: '/api/files/{token}',
      op: 'file',
      session: false,
      // The signed link's token; links.ts verifies it (a bad one is its NOT_FOUND).
      params: z.object({ token: z.string() }),
    },
  ],
});

// The vendor authorisation calls (functions/handlers/vendors.ts): they save the integration, record
// used OAuth states, read the OAuth client secrets and the state key, and wait on vendors.
export const vendorsApi = apiFunction({
  resource: 'vendors',
  needs: { table: 'readwrite', secrets: true, timeoutSeconds: 25 },
  routes: [
    // A token vendor's list (the catalogue's `list`: `gitlab/projects`, `github/repos`, ...). The route's
    // body schema reads the project, which every vendor's body names; the operation reads the vendor's own.
    {
      method: 'POST',
      path: '/api/client/integration/{vendor}/{list}',
      op: 'list',
      session: true,
      access: { scope: 'project', action: 'integrations', from: 'body.siteId' },
      params: vendorListParams,
      body: vendorListBody,
    },
    // One route per call, for every vendor its `{vendor}` schema names (the catalogue's OAuth vendors,
    // or all vendors for the reset); the URLs are the ones each vendor had. `{vendor}` is the segment
    // after `integration/`, where the literal `sync/{siteUuid}` and `{siteId}` routes have fewer segments
    // (the list calls' `{vendor}/{list}` is the only POST there with two).
    {
      method: 'GET',
      path: '/api/client/integration/{vendor}/authorize/{siteId}',
      op: 'oauthAuthorize',
      session: true,
      access: { scope: 'project', action: 'integrations', from: 'params.siteId' },
      params: oauthSiteParams,
    },
    {
      method: 'POST',
      path: '/api/client/integration/{vendor}/authentication/{siteId}',
      op: 'oauthAuthentication',
      session: true,
      access: { scope: 'project', action: 'integrations', from: 'params.siteId' },
      params: oauthSiteParams,
      body: oauthExchangeSchema,
    },
    {
      method: 'GET',
      path: '/api/client/integration/{vendor}/channels/{siteId}',
      op: 'oauthChannels',
      session: true,
      access: { scope: 'project', action: 'integrations', from: 'params.siteId' },
      params: oauthSiteParams,
    },
    {
      method: 'DELETE',
      path: '/api/client/integration/{vendor}/authentication/{siteId}',
      op: 'reset',
      session: true,
      access: { scope: 'project', action: 'integrations', from: 'params.siteId' },
      params: vendorSiteParams,
    },
  ],
});

const hookSite = z.object({ vendor: z.enum(trackerVendors), siteId: projectIdParam });
const hookSettings = { scope: 'project', action: 'integrations', from: 'params.siteId' } as const;

// Two-way sync (issue 24, docs/webhooks.md "Inbound tracker hooks"): the trackers' inbound hooks, verified
// on the raw body and queued for the tracker consumer, and the settings calls that show, regenerate and
// register them (reading the integration's token, waiting on GitLab's hook registration).
export const hooksApi = apiFunction({
  resource: 'hooks',
  needs: { table: 'readwrite', sendTo: ['tracker'], timeoutSeconds: 25 },
  routes: [
    {
      method: 'POST',
      path: '/api/hooks/{vendor}/{hookId}',
      op: 'receive',
      session: false,
      caller: 'public',
      // The raw body is verified before it is parsed (functions/integrations/sync/inbound.ts).
      params: hookParamsSchema,
    },
    {
      // Trello creates a webhook only after a HEAD of its callback URL answered 200 (api-specs README).
      method: 'HEAD',
      path: '/api/hooks/{vendor}/{hookId}',
      op: 'check',
      session: false,
      caller: 'public',
      params: hookParamsSchema,
    },
    {
      method: 'GET',
      path: '/api/client/integration/{vendor}/hook/{siteId}',
      op: 'show',
      session: true,
      access: hookSettings,
      params: hookSite,
    },
    {
      method: 'POST',
      path: '/api/client/integration/{vendor}/hook/{siteId}/secret',
      op: 'reveal',
      session: true,
      access: hookSettings,
      params: hookSite,
    },
    {
      method: 'POST',
      path: '/api/client/integration/{vendor}/hook/{siteId}/regenerate',
      op: 'regenerate',
      session: true,
      access: hookSettings,
      params: hookSite,
    },
    {
      method: 'POST',
      path: '/api/client/integration/{vendor}/hook/{siteId}/register',
      op: 'register',
      session: true,
      access: hookSettings,
      params: hookSite,
    },
  ],
});

export const integrations = {
  domain: 'integrations',
  api: [integrationsApi, vendorsApi, hooksApi],
  queues: { fanout: fanoutQueue, delivery: deliveryQueue, tracker: trackerQueue },
} satisfies DomainManifest;
