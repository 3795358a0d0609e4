/**
 * The one catalogue of the integrations: what Snag knows about each as plain data, from which every
 * per-integration list, type and union is derived (`integrationNames`, the token, OAuth and tracker
 * vendors, secret, binding and target fields, titles, reset data). The behaviour tables (deliverers,
 * authorisers, sync adapters, settings forms, local fakes) are keyed by it and typed exhaustive against
 * it, and test/unit/functions/integration-catalogue.test.ts walks it, so a new vendor is one row here
 * plus its own files (docs/layout.md "A new vendor integration").
 *
 * Import-free but for the names (integration-names.ts), which are written out there, not read from the
 * rows: the schemas every Lambda shares and the dashboard's first load (DESIGN.md budget: 200 KB of
 * initial JS) need the names alone, and names computed from the rows would carry every row into them. The
 * `satisfies` below holds names and rows equal.
 */
import {
  type IntegrationName,
  integrationNames,
  isOneOf,
  type OAuthVendor,
  oauthRedirectSegment,
  oauthVendors,
  type TokenVendor,
  type TrackerVendor,
  tokenVendors,
  trackerVendors,
  type VendorName,
  vendorNames,
} from './integration-names';

export {
  type IntegrationName,
  integrationNames,
  isOneOf,
  type OAuthVendor,
  oauthRedirectSegment,
  oauthVendors,
  type TokenVendor,
  type TrackerVendor,
  tokenVendors,
  trackerVendors,
  type VendorName,
  vendorNames,
};

/** How an integration is authorised: not at all (email, webhooks), by a typed token, or through OAuth. */
export type IntegrationAuth = 'none' | 'token' | 'oauth';

interface CatalogueRow {
  /** The name as a sentence reads it ("Check GitLab", "Jane on GitLab", a vendor's error). */
  readonly title: string;
  readonly auth: IntegrationAuth;
  /** The fields of its `data` that are secrets (masked on read, kept when sent back masked). */
  readonly secrets: readonly string[];
  /**
   * Where its secret goes: the fields that name the receiver (and, for Jira, whose token it is). A masked
   * secret sent back means "the stored one" only while these are unchanged (docs/decisions.md "A stored
   * secret stays with its target").
   */
  readonly bindings: readonly string[];
  /** The fields of its `data` that name an outbound target (checked by the save call). */
  readonly targets: readonly string[];
  /** The fields of its `data` required while it is active (SPEC.md section 5; a masked secret counts). */
  readonly required: readonly string[];
  /** Whether it syncs both ways (an adapter in functions/integrations/sync/adapters.ts, the hook panel). */
  readonly tracker: boolean;
  /**
   * What a retry does after an attempt whose outcome is unknown (it may have reached the vendor):
   * `resend` where a repeat is dropped or found (webhooks' idempotency key, Linear's derived issue id, a
   * second mail is harmless); `ask` where a second send could open a second ticket, so the issue fails
   * with a reason that asks the client to check the vendor before Sync (functions/integrations/deliver.ts).
   */
  readonly unknownOutcome: 'resend' | 'ask';
  /** What its reset clears besides the flags and OAuth tokens (SPEC section 4); null: it has no reset. */
  readonly reset: Readonly<Record<string, string>> | null;
  /**
   * A token vendor's list call, `POST client/integration/<vendor>/<list>`, which checks the token, lists
   * the choices and authorises; an OAuth vendor's list is `GET .../<vendor>/channels/{siteId}`.
   */
  readonly list?: 'projects' | 'repos' | 'teams' | 'lists' | 'boards';
  /**
   * A tracker's inbound hook (issue 24): who chooses the secret its deliveries are proven with, and whether
   * Snag registers the hook through the vendor's API (the hook panel's button). `snag`: Snag generates it,
   * the panel shows and regenerates it (a registered hook is registered again with the new one); `vendor`:
   * the vendor answers it at registration (ClickUp), nobody types it, nothing to show or regenerate;
   * `app`: the vendor signs with the client's own app secret typed on the settings screen (Trello).
   */
  readonly hook?: { readonly secret: 'snag' | 'vendor' | 'app'; readonly registrable: boolean };
  /**
   * What a delivery leaves to open: absent, the created item's link when the vendor answers one; `none`
   * where the vendor answers no id at all (a Teams Workflows webhook: 202, empty), so the issue says
   * "posted" and offers no link rather than a dead one (docs/integrations.md "Microsoft Teams").
   */
  readonly deliveryLink?: 'none';
}

export const integrationCatalogue = {
  email: {
    title: 'email',
    auth: 'none',
    secrets: [],
    bindings: [],
    targets: [],
    required: ['email'],
    tracker: false,
    unknownOutcome: 'resend',
    reset: null,
  },
  gitlab: {
    title: 'GitLab',
    auth: 'token',
    secrets: ['key'],
    bindings: ['host'],
    targets: ['host'],
    required: ['key'],
    tracker: true,
    hook: { secret: 'snag', registrable: true },
    unknownOutcome: 'ask',
    reset: { key: '', id: '' },
    list: 'projects',
  },
  jira: {
    title: 'Jira',
    auth: 'token',
    secrets: ['key'],
    bindings: ['host', 'username'],
    targets: ['host'],
    required: ['host', 'username', 'key'],
    tracker: true,
    hook: { secret: 'snag', registrable: false },
    unknownOutcome: 'ask',
    reset: { key: '', id: '', issueId: '' },
    list: 'projects',
  },
  slack: {
    title: 'Slack',
    auth: 'oauth',
    secrets: [],
    bindings: [],
    targets: [],
    required: [],
    tracker: false,
    unknownOutcome: 'ask',
    reset: { id: '', name: '' },
  },
  asana: {
    title: 'Asana',
    auth: 'oauth',
    secrets: [],
    bindings: [],
    targets: [],
    required: [],
    tracker: false,
    unknownOutcome: 'ask',
    reset: { id: '', name: '' },
  },
  github: {
    title: 'GitHub',
    auth: 'token',
    secrets: ['key'],
    // The API address is Snag's setting (GITHUB_API_URL), not the client's: the token has one receiver.
    bindings: [],
    targets: [],
    required: ['key'],
    tracker: true,
    hook: { secret: 'snag', registrable: true },
    // No idempotency key, and its search is too slow to find an issue created seconds ago.
    unknownOutcome: 'ask',
    // The labels are the client's setting, not the token's: they stay for the next authorisation.
    reset: { key: '', id: '' },
    list: 'repos',
  },
  linear: {
    title: 'Linear',
    auth: 'token',
    secrets: ['key'],
    bindings: [],
    targets: [],
    required: ['key'],
    tracker: true,
    hook: { secret: 'snag', registrable: true },
    // Its issues are created with an id derived from the delivery, looked up before creating.
    unknownOutcome: 'resend',
    reset: { key: '', id: '', name: '' },
    list: 'teams',
  },
  webhooks: {
    title: 'the webhook receiver',
    auth: 'none',
    secrets: ['token'],
    bindings: ['url'],
    targets: ['url'],
    required: ['url'],
    tracker: false,
    unknownOutcome: 'resend',
    reset: null,
  },
  clickup: {
    title: 'ClickUp',
    auth: 'token',
    secrets: ['key'],
    // ClickUp's API address is Snag's setting (CLICKUP_API_URL): the token has one receiver.
    bindings: [],
    targets: [],
    required: ['key'],
    tracker: true,
    hook: { secret: 'vendor', registrable: true },
    // No idempotency key on task creation: a second create after an unknown outcome is a second task.
    unknownOutcome: 'ask',
    reset: { key: '', id: '', name: '' },
    list: 'lists',
  },
  teams: {
    title: 'Microsoft Teams',
    auth: 'none',
    // The Workflows URL is the only credential (its `sig=`): masked on read, kept when sent back masked.
    secrets: ['url'],
    bindings: [],
    targets: ['url'],
    required: ['url'],
    tracker: false,
    // A Workflows webhook takes no idempotency key and answers 202 with no id: a second post is a second card.
    unknownOutcome: 'ask',
    reset: null,
    deliveryLink: 'none',
  },
  discord: {
    title: 'Discord',
    auth: 'none',
    // The webhook URL carries its token: masked on read, kept when sent back masked.
    secrets: ['url'],
    bindings: [],
    targets: ['url'],
    required: ['url'],
    tracker: false,
    // A webhook cannot look up the messages it posted without their ids: a second post is a second embed.
    unknownOutcome: 'ask',
    reset: null,
  },
  azure: {
    title: 'Azure DevOps',
    auth: 'token',
    secrets: ['key'],
    // The organisation (or self-hosted collection) URL receives the PAT: a masked token stays with it.
    bindings: ['host'],
    targets: ['host'],
    required: ['host', 'key'],
    tracker: true,
    hook: { secret: 'snag', registrable: true },
    // No idempotency key, and no search in the API Snag uses: a second create would be a second work item.
    unknownOutcome: 'ask',
    reset: { key: '', id: '' },
    list: 'projects',
  },
  trello: {
    title: 'Trello',
    auth: 'token',
    // The token acts as its user; the app secret keys the signatures of the webhook deliveries. The API
    // address is Snag's setting (TRELLO_API_URL), so neither has a receiver the client types.
    secrets: ['token', 'secret'],
    bindings: ['key'],
    targets: [],
    required: ['key', 'token', 'secret'],
    tracker: true,
    hook: { secret: 'app', registrable: true },
    // No idempotency key on POST /cards, and no search for a card made seconds ago.
    unknownOutcome: 'ask',
    // The lists chosen are the client's setting, not the token's: they go with the board, cleared too.
    reset: { token: '', secret: '', board: '', list: '', doneList: '' },
    list: 'boards',
  },
} as const satisfies {
  // Every name has its row and no row is without a name; the name lists of integration-names.ts are
  // exactly the rows that say so (`oauth`, `token`, `tracker: true`), both ways.
  [N in IntegrationName]: CatalogueRow & {
    auth: N extends OAuthVendor ? 'oauth' : N extends TokenVendor ? 'token' : 'none';
    tracker: N extends TrackerVendor ? true : false;
  } & (N extends TrackerVendor ? { hook: NonNullable<CatalogueRow['hook']> } : { hook?: never });
};

type Catalogue = typeof integrationCatalogue;
/** A catalogue field of every integration, as a table keyed by name. */
export const catalogueTable = <K extends keyof CatalogueRow>(field: K) =>
  Object.fromEntries(
    integrationNames.map((n) => [n, integrationCatalogue[n][field as never]]),
  ) as unknown as {
    [N in IntegrationName]: Catalogue[N][K & keyof Catalogue[N]];
  };

/** The name a sentence reads ("Check GitLab", "Jane on GitLab"). */
export const titleOf = (name: IntegrationName): string => integrationCatalogue[name].title;

/** A tracker's inbound hook: who chooses its secret, and whether Snag registers it (the row's `hook`). */
export const hookOf = (vendor: TrackerVendor): NonNullable<CatalogueRow['hook']> =>
  integrationCatalogue[vendor].hook;

/** What a delivery leaves to open (the row's `deliveryLink`): `none` where the vendor answers no id. */
export const deliveryLinkOf = (name: IntegrationName): 'none' | undefined =>
  (integrationCatalogue[name] as CatalogueRow).deliveryLink;
