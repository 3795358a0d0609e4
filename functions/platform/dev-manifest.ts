/**
 * The developer tools of the local stack (never deployed: every route is `localOnly`, and the handler
 * refuses outside the local stage as well).
 */
import { apiFunction, type DomainManifest } from '#contracts/manifest';
import { devEmailsQuery, devPlanSchema } from '#contracts/schemas';

// Local only: the mail the SES stand-in caught, and setting a plan before billing exists.
export const devApi = apiFunction({
  resource: 'dev',
  needs: { table: 'readwrite' },
  routes: [
    {
      method: 'GET',
      path: '/api/dev/emails',
      op: 'emails',
      session: false,
      query: devEmailsQuery,
      localOnly: true,
    },
    {
      method: 'POST',
      path: '/api/dev/plan',
      op: 'plan',
      session: false,
      body: devPlanSchema,
      localOnly: true,
    },
  ],
});

export const devTools = {
  domain: 'dev',
  api: [devApi],
} satisfies DomainManifest;
