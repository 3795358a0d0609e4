/**
 * The platform's own functions: the health probe, and the developer tools of the local stack (never
 * deployed: every route is `localOnly`).
 */
import { apiFunction, type DomainManifest } from '#contracts/manifest';
import { devEmailsQuery, devPlanSchema } from '#contracts/schemas';

export const platform = {
  domain: 'platform',
  api: {
    // GET /api/health probes every dependency and may do nothing else.
    health: apiFunction<typeof import('../handlers/health').operations>()({
      needs: { probe: true },
      routes: [{ method: 'GET', path: '/api/health', op: 'health', session: false, caller: 'public' }],
    }),
    // Local only: the mail the SES stand-in caught, and setting a plan before billing exists.
    dev: apiFunction<typeof import('../handlers/dev').operations>()({
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
    }),
  },
} satisfies DomainManifest;
