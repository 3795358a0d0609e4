/**
 * Imports that break the layer table today and are being removed by the other parts of issue 21. The
 * structure test tolerates exactly these and fails when one of them no longer occurs, so this list can only
 * shrink; the lead empties it as the parts are merged. Never add to it: fix the import instead.
 */
import type { KnownViolation } from './layers';

/** Issue 21 "domains": no domain calls upward, contracts import no runtime. */
const domains = 'issue 21 domains';

export const knownViolations: readonly KnownViolation[] = [
  {
    from: 'functions/contracts/review.ts',
    to: 'functions/runtime/messages.ts',
    why: `${domains}: IntegrationName comes from contracts, not the runtime's messages`,
  },
  {
    from: 'functions/accounts/plan.ts',
    to: 'functions/billing/store.ts',
    why: `${domains}: accounts → billing`,
  },
  {
    from: 'functions/accounts/plan.ts',
    to: 'functions/projects/projects.ts',
    why: `${domains}: accounts → projects`,
  },
  {
    from: 'functions/accounts/cascade.ts',
    to: 'functions/projects/service.ts',
    why: `${domains}: accounts → projects`,
  },
  {
    from: 'functions/projects/service.ts',
    to: 'functions/integrations/integrations.ts',
    why: `${domains}: projects → integrations`,
  },
];
