/**
 * Configuration, parsed once with zod from the environment. In AWS the CDK stack sets these variables; the
 * local stack sets them for its own stand-ins. A missing or malformed value fails fast with the names
 * of the offending variables.
 */
import * as z from 'zod';
import { type QueueName, queueNames, queueUrlVariable } from '#contracts/manifest';

const optionalUrl = z.url().optional();

export const configSchema = z.object({
  SNAG_STAGE: z.enum(['local', 'dev', 'prod']).default('local'),
  AWS_REGION: z.string().min(1).default('eu-central-1'),
  /**
   * Set only for functions whose manifest declares what they name (functions/contracts/manifest.ts
   * `variablesFor`); read them through `tableName()`, `bucketName()` and `queueUrl()`.
   */
  TABLE_NAME: z.string().min(1).optional(),
  UPLOADS_BUCKET: z.string().min(1).optional(),
  ...(Object.fromEntries(queueNames.map((q) => [queueUrlVariable(q), z.url().optional()])) as Record<
    ReturnType<typeof queueUrlVariable>,
    z.ZodOptional<z.ZodURL>
  >),
  MAIL_FROM: z.string().min(3).default('Snag <no-reply@snag.localhost>'),
  /** Origin of the dashboard (and of /api): https://app.example.com, or http://localhost:3000 locally. */
  APP_ORIGIN: z.url(),
  /** Where "Snag" in the auth layout's logo links. */
  MARKETING_URL: z.url().default('https://snag.example.com'),
  /** Endpoint overrides for the local stand-ins; unset in AWS. */
  DYNAMODB_ENDPOINT: optionalUrl,
  S3_ENDPOINT: optionalUrl,
  SQS_ENDPOINT: optionalUrl,
  SES_ENDPOINT: optionalUrl,
  /**
   * The value CloudFront adds as the `x-snag-edge` origin header (a Secrets Manager generated secret, set
   * by a dynamic reference at deploy). Deployed stages refuse API requests without it; unused locally.
   */
  EDGE_SECRET: z.string().min(32).optional(),
  /** SSM parameter (SecureString, JSON) holding the secrets in AWS; locally they come from the env. */
  SECRETS_PARAMETER: z.string().optional(),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  /** Google sign-in: without a client id the button is not rendered and the call is refused. */
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_JWKS_URL: z.url().default('https://www.googleapis.com/oauth2/v3/certs'),
  GOOGLE_ISSUERS: z.string().default('https://accounts.google.com,accounts.google.com'),
  /**
   * Proof of work: PBKDF2 iterations per attempt and the range the secret counter is drawn from. The
   * defaults cost a phone about a second (README "Proof of work"); tests lower them.
   */
  ALTCHA_COST: z.coerce.number().int().positive().default(1000),
  ALTCHA_COUNTER_MIN: z.coerce.number().int().nonnegative().default(1000),
  ALTCHA_COUNTER_MAX: z.coerce.number().int().positive().default(3000),
  /** Where the built widget files are (loader.js): dist/widget locally, bundled beside the Lambda in AWS. */
  WIDGET_DIR: z.string().default('dist/widget'),
  /** scrypt cost (N = 2^SCRYPT_LOG_N); tests lower it. */
  SCRYPT_LOG_N: z.coerce.number().int().min(10).max(20).default(15),
  /** Stripe's API; locally the Stripe stand-in (lib/local/stripe.ts) unless real Stripe keys are set. */
  STRIPE_API_URL: z.url().default('https://api.stripe.com'),
  /** Who gets the Business plan requests (issue 12). */
  OPERATOR_EMAIL: z.string().min(3).default('operators@snag.localhost'),
  /**
   * The seller on every invoice (issue 19; README "Configuration", docs/operations.md "Invoices"). The
   * defaults are placeholders for the local stack: a deployed stage sets its own. An invoice keeps the
   * values it was issued with, so changing them later changes only new invoices.
   */
  SELLER_NAME: z.string().trim().min(1).max(200).default('Snag Software GmbH (local)'),
  /** The seller's postal address; `;` separates the printed lines. */
  SELLER_ADDRESS: z.string().trim().min(1).max(500).default('Musterstraße 1;10115 Berlin;Germany'),
  /** The seller's country (ISO two-letter code): decides where reverse charge applies. */
  SELLER_COUNTRY: z
    .string()
    .trim()
    .regex(/^[A-Za-z]{2}$/)
    .transform((c) => c.toUpperCase())
    .default('DE'),
  SELLER_VAT_ID: z.string().trim().min(4).max(30).default('DE123456789'),
  /** The VAT rate (percent) included in Snag's prices where no reverse charge applies. */
  SELLER_VAT_RATE: z.coerce.number().min(0).max(50).default(19),
  /**
   * Invoice numbers are `<prefix>-<6 digits>`, one gap-free sequence per prefix: a new seller (another
   * company or VAT id) takes a new prefix, and so its own sequence.
   */
  INVOICE_PREFIX: z
    .string()
    .regex(/^[A-Z0-9]{1,12}$/)
    .default('SNAG'),
  /**
   * Vendors (issue 11, README "Vendor fakes"): base URLs, the real vendors' by default, the fakes' when
   * `npm start` runs them (unless SNAG_VENDOR_FAKES=0). The OAuth client secrets are secrets (runtime/secrets.ts); the ids are not.
   */
  GITLAB_URL: z.url().default('https://gitlab.com'),
  SLACK_API_URL: z.url().default('https://slack.com/api'),
  SLACK_AUTHORIZE_URL: z.url().default('https://slack.com/oauth/v2/authorize'),
  SLACK_CLIENT_ID: z.string().optional(),
  ASANA_API_URL: z.url().default('https://app.asana.com/api/1.0'),
  ASANA_OAUTH_URL: z.url().default('https://app.asana.com/-'),
  ASANA_CLIENT_ID: z.string().optional(),
  /** GitHub's REST API (issue 24); a GitHub Enterprise Server's is `https://<host>/api/v3`. */
  GITHUB_API_URL: z.url().default('https://api.github.com'),
  /** Linear's one GraphQL endpoint (a fixed vendor URL: no user host, so no SSRF guard on it). */
  LINEAR_API_URL: z.url().default('https://api.linear.app/graphql'),
  /** ClickUp's REST API base (issue 36; `/v2/…` below it): a fixed vendor URL, no user host. */
  CLICKUP_API_URL: z.url().default('https://api.clickup.com/api'),
  /** Trello's REST API (issue 36): a fixed vendor URL, no user host. */
  TRELLO_API_URL: z.url().default('https://api.trello.com/1'),
  /**
   * Tries per issue of a triage change before it answers BUSY (functions/issues/triage.ts); lower only in
   * tests that force the exhaustion.
   */
  TRIAGE_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(20),
  /** The local stack's vendor fakes by integration name, as JSON (never set in AWS): see `vendorFakeUrl`. */
  SNAG_VENDOR_FAKES_AT: z.string().optional(),
});

export type Config = z.infer<typeof configSchema>;

/** The origin header CloudFront adds to every API request (lib/stacks/web.ts), checked by runtime/http.ts. */
export const EDGE_SECRET_HEADER = 'x-snag-edge';

let cached: Config | undefined;

export function parseConfig(env: NodeJS.ProcessEnv): Config {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const names = parsed.error.issues.map((i) => `${i.path.join('.')} (${i.message})`).join(', ');
    throw new Error(`Invalid Snag configuration: ${names}`);
  }
  return parsed.data;
}

/** The configuration of this process, parsed on first use and then kept. */
export function getConfig(): Config {
  cached ??= parseConfig(process.env);
  return cached;
}

/** Forget the parsed configuration (tests and the local stack change the environment before start). */
export function resetConfig(): void {
  cached = undefined;
}

export const isLocal = () => getConfig().SNAG_STAGE === 'local';

/** Set by the local stack when it runs the vendor fakes (lib/local/vendors): `{ "<integration>": "<fake's address>" }`. */
export const VENDOR_FAKES_VARIABLE = 'SNAG_VENDOR_FAKES_AT';

/**
 * The address of the local fake an integration talks to, so its screen can say it is not the real
 * service; undefined outside the local stage or without the fakes.
 */
export function vendorFakeUrl(name: string): string | undefined {
  const raw = getConfig().SNAG_VENDOR_FAKES_AT;
  if (!raw || !isLocal()) return undefined;
  try {
    const urls = JSON.parse(raw) as Record<string, unknown>;
    return typeof urls[name] === 'string' ? urls[name] : undefined;
  } catch {
    return undefined;
  }
}

/** A name only some functions get: missing means the function's manifest does not declare that need. */
function declared(name: string, value: string | undefined): string {
  if (!value) {
    throw new Error(
      `${name} is not set: this function's manifest (functions/<domain>/manifest.ts) does not declare the need for it`,
    );
  }
  return value;
}

export const tableName = () => declared('TABLE_NAME', getConfig().TABLE_NAME);
export const bucketName = () => declared('UPLOADS_BUCKET', getConfig().UPLOADS_BUCKET);
export const queueUrl = (queue: QueueName) => {
  const name = queueUrlVariable(queue);
  return declared(name, (getConfig() as Record<string, unknown>)[name] as string | undefined);
};
