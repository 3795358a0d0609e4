/**
 * The type-only registry of the API at the roof (DESIGN.md section 9): each resource's handler
 * `operations` and its declaration's routes as written, from which the dashboard's typed client
 * (web/src/api/endpoints.ts) takes each call's request and answer types. web/ imports it with `import type`
 * only, so no handler, manifest or schema reaches the dashboard's bundle; the manifests name no handler, so
 * this is the one place the two meet for the dashboard.
 */
import type { ApiDeclaration, ResourceName } from './manifests';

export type { ResourceName };

/** Each resource's `operations`; the check below fails the typecheck when a resource is missing or extra. */
type Operations = {
  health: typeof import('./handlers/health').operations;
  dev: typeof import('./handlers/dev').operations;
  auth: typeof import('./handlers/auth').operations;
  profile: typeof import('./handlers/profile').operations;
  notifications: typeof import('./handlers/notifications').operations;
  extension: typeof import('./handlers/extension').operations;
  teams: typeof import('./handlers/teams').operations;
  tokens: typeof import('./handlers/tokens').operations;
  audit: typeof import('./handlers/audit').operations;
  privacy: typeof import('./handlers/privacy').operations;
  projects: typeof import('./handlers/projects').operations;
  widget: typeof import('./handlers/widget').operations;
  intake: typeof import('./handlers/intake').operations;
  issues: typeof import('./handlers/issues').operations;
  exports: typeof import('./handlers/exports').operations;
  reporter: typeof import('./handlers/reporter').operations;
  integrations: typeof import('./handlers/integrations').operations;
  vendors: typeof import('./handlers/vendors').operations;
  hooks: typeof import('./handlers/hooks').operations;
  billing: typeof import('./handlers/billing').operations;
  stripe: typeof import('./handlers/stripe').operations;
  v1: typeof import('./handlers/v1').operations;
};

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type MustHold<T extends true> = T;
/** Fails the typecheck here unless the registry names exactly the manifests' resources. */
export type RegistryIsComplete = MustHold<Same<keyof Operations, ResourceName>>;

/** A resource's handler `operations` (types only). */
export type OperationsOf<R extends ResourceName> = Operations[R];

/** A resource's routes as its manifest declared them, each schema with its own type (types only). */
export type DeclaredRoutesOf<R extends ResourceName> = Extract<ApiDeclaration, { resource: R }>['routes'];
