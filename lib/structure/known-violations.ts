/**
 * Imports that break the layer table today and are being removed by the other parts of issue 21. The
 * structure test tolerates exactly these and fails when one of them no longer occurs, so this list can only
 * shrink; the lead empties it as the parts are merged. Never add to it: fix the import instead.
 */
import type { KnownViolation } from './layers';

/** Issue 21 "pipeline": the route table moves to the roof, handlers import their declarations. */
const pipeline = 'issue 21 pipeline';
/** Issue 21 "domains": no domain calls upward, contracts import no runtime. */
const domains = 'issue 21 domains';

/** A domain manifest types its routes with `typeof import('../handlers/x')`: the declaration points at its user. */
const manifestTypesHandler = (domain: string, handler: string): KnownViolation => ({
  from: `functions/${domain}/manifest.ts`,
  to: `functions/handlers/${handler}.ts`,
  why: `${pipeline}: resourceHandler(declaration, operations) makes the handler import the manifest`,
});

export const knownViolations: readonly KnownViolation[] = [
  // contracts → roof, which closes the one big circle (runtime → contracts → roof → every manifest).
  {
    from: 'functions/contracts/routes.ts',
    to: 'functions/manifests.ts',
    why: `${pipeline}: route table at the roof`,
  },
  manifestTypesHandler('platform', 'health'),
  manifestTypesHandler('platform', 'dev'),
  manifestTypesHandler('accounts', 'auth'),
  manifestTypesHandler('accounts', 'profile'),
  manifestTypesHandler('projects', 'projects'),
  manifestTypesHandler('projects', 'widget'),
  manifestTypesHandler('issues', 'intake'),
  manifestTypesHandler('issues', 'issues'),
  manifestTypesHandler('billing', 'billing'),
  manifestTypesHandler('billing', 'stripe'),
  manifestTypesHandler('integrations', 'integrations'),
  manifestTypesHandler('integrations', 'vendors'),
  {
    from: 'functions/consumers/delivery.ts',
    to: 'functions/manifests.ts',
    why: `${pipeline}: consumers read their queue's declaration from their domain manifest`,
  },
  {
    from: 'functions/consumers/delivery-dlq.ts',
    to: 'functions/manifests.ts',
    why: `${pipeline}: consumers read their queue's declaration from their domain manifest`,
  },
  {
    from: 'web/src/api/endpoint-table.ts',
    to: 'web/src/api/endpoints.ts',
    why: `${pipeline}: type-only registry for the dashboard (the generated table and its types import each other)`,
  },
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
