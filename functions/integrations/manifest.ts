/**
 * The async path of DESIGN.md section 2: `issue.created` → fan-out → one delivery per integration. The
 * consumers are functions/consumers/<queue>.ts. Each visibility timeout is 6x its consumer's timeout, as
 * AWS advises for SQS event sources, so a slow batch is not delivered twice while it still runs.
 */
import * as z from 'zod';
import { integrationSaveSchema, syncRequestSchema } from '#contracts/integrations';
import { apiFunction, bucketPrefixes, type DomainManifest, type QueueDecl } from '#contracts/manifest';
import { projectIdParam } from '#contracts/schemas';
import { gitlabProjectsSchema, jiraProjectsSchema, oauthExchangeSchema } from '#contracts/vendor-auth';

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
      params: site,
      body: integrationSaveSchema,
      context: 'integrationSave',
    },
    {
      method: 'PATCH',
      path: '/api/client/integration/sync/{siteUuid}',
      op: 'sync',
      session: true,
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
    {
      method: 'POST',
      path: '/api/client/integration/gitlab/projects',
      op: 'gitlabProjects',
      session: true,
      body: gitlabProjectsSchema,
    },
    {
      method: 'POST',
      path: '/api/client/integration/jira/projects',
      op: 'jiraProjects',
      session: true,
      body: jiraProjectsSchema,
    },
    {
      method: 'GET',
      path: '/api/client/integration/slack/authorize/{siteId}',
      op: 'slackAuthorize',
      session: true,
      params: site,
    },
    {
      method: 'POST',
      path: '/api/client/integration/slack/authentication/{siteId}',
      op: 'slackAuthentication',
      session: true,
      params: site,
      body: oauthExchangeSchema,
    },
    {
      method: 'GET',
      path: '/api/client/integration/slack/channels/{siteId}',
      op: 'slackChannels',
      session: true,
      params: site,
    },
    {
      method: 'GET',
      path: '/api/client/integration/asana/authorize/{siteId}',
      op: 'asanaAuthorize',
      session: true,
      params: site,
    },
    {
      method: 'POST',
      path: '/api/client/integration/asana/authentication/{siteId}',
      op: 'asanaAuthentication',
      session: true,
      params: site,
      body: oauthExchangeSchema,
    },
    {
      method: 'GET',
      path: '/api/client/integration/asana/channels/{siteId}',
      op: 'asanaChannels',
      session: true,
      params: site,
    },
    {
      method: 'DELETE',
      path: '/api/client/integration/gitlab/authentication/{siteId}',
      op: 'gitlabReset',
      session: true,
      params: site,
    },
    {
      method: 'DELETE',
      path: '/api/client/integration/jira/authentication/{siteId}',
      op: 'jiraReset',
      session: true,
      params: site,
    },
    {
      method: 'DELETE',
      path: '/api/client/integration/slack/authentication/{siteId}',
      op: 'slackReset',
      session: true,
      params: site,
    },
    {
      method: 'DELETE',
      path: '/api/client/integration/asana/authentication/{siteId}',
      op: 'asanaReset',
      session: true,
      params: site,
    },
  ],
});

/** Consumer: functions/consumers/fanout.ts. */
export const fanoutQueue = {
  visibilityTimeoutSeconds: 120,
  maxReceiveCount: 5,
  batchSize: 10,
  maxConcurrency: 5,
  // Reads META's active integrations, sets their statuses to 1 (deleting the sync markers), enqueues one delivery each.
  consumer: { needs: { table: 'readwrite', sendTo: ['delivery'] }, timeoutSeconds: 20 },
} satisfies QueueDecl;

/** Consumer: functions/consumers/delivery.ts; dead-letter consumer: functions/consumers/delivery-dlq.ts. */
export const deliveryQueue = {
  visibilityTimeoutSeconds: 360,
  maxReceiveCount: 5,
  // A vendor that is down or rate-limiting gets time to recover: 1, 5, 20 and 60 minutes between the
  // 5 attempts (about 1 h 26 min in all) before the ticket shows "failed" and waits for Sync.
  retryDelaysSeconds: [60, 300, 1200, 3600],
  // One record per invocation: a slow vendor (15 s per call, several calls) holds up no other
  // customer's delivery in its batch, and each record gets the whole time budget (consumers/delivery.ts).
  batchSize: 1,
  // At most 10 deliveries at once: vendors rate-limit per token, and 10 parallel calls of at most 15 s
  // still move ≥ 40 deliveries a minute when every vendor is at its slowest. Messages carry their project
  // as MessageGroupId (SQS fair queues), so one project's backlog cannot hold all 10 (decisions.md).
  maxConcurrency: 10,
  // Reads the issue it sends and writes its status, vendor id and sync marker; email goes through SES;
  // signs the 7-day file links (secrets), reads stored screenshots for vendor uploads, delays its
  // retries, and hands a vendor's success on through its own queue when the status write fails.
  consumer: {
    needs: {
      table: 'readwrite',
      mail: true,
      secrets: true,
      objects: { read: [bucketPrefixes.stored] },
      sendTo: ['delivery'],
      delaysRetriesOf: 'delivery',
    },
    timeoutSeconds: 60,
  },
  // Settles what reached the DLQ: a delivery whose consumer died or timed out on its last receive is
  // marked failed (3) with its sync marker, and a handed-on success is recorded (2).
  deadLetter: {
    visibilityTimeoutSeconds: 60,
    batchSize: 10,
    maxConcurrency: 2,
    consumer: { needs: { table: 'readwrite' }, timeoutSeconds: 10 },
  },
} satisfies QueueDecl;

export const integrations = {
  domain: 'integrations',
  api: [integrationsApi, vendorsApi],
  queues: { fanout: fanoutQueue, delivery: deliveryQueue },
} satisfies DomainManifest;
