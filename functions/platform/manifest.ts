/**
 * The platform's own function: the health probe. The developer tools of the local stack are the other
 * manifest of this folder (dev-manifest.ts), so that the probe's bundle, which imports its declaration from
 * here, carries no schema (`npx tsx test/bench/lambda.ts`).
 */
import { apiFunction, type DomainManifest } from '#contracts/manifest';

// GET /api/health probes every dependency and may do nothing else.
export const healthApi = apiFunction({
  resource: 'health',
  needs: { probe: true },
  routes: [{ method: 'GET', path: '/api/health', op: 'health', session: false, caller: 'public' }],
});

export const platform = {
  domain: 'platform',
  api: [healthApi],
} satisfies DomainManifest;
