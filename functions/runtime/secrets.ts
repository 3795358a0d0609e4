/**
 * Secrets: in AWS one SSM SecureString parameter (JSON) named by SECRETS_PARAMETER, read once per
 * container; locally the same keys come from the environment (the local stack fills them in).
 */
import * as z from 'zod';
import { hooked } from './aws/options';
import { getConfig } from './config';

const secretsSchema = z.object({
  ALTCHA_HMAC_KEY: z.string().min(16),
  STRIPE_SECRET_KEY: z.string().optional(),
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  SLACK_CLIENT_SECRET: z.string().optional(),
  ASANA_CLIENT_SECRET: z.string().optional(),
  /** Signs the Slack and Asana OAuth states (functions/integrations/oauth-state.ts). */
  OAUTH_STATE_KEY: z.string().min(16).optional(),
});
export type Secrets = z.infer<typeof secretsSchema>;

let pending: Promise<Secrets> | undefined;

async function load(): Promise<Secrets> {
  const { SECRETS_PARAMETER, AWS_REGION } = getConfig();
  if (!SECRETS_PARAMETER) return parse(process.env, 'the environment');
  // Loaded on demand: only AWS needs SSM, and only once per container.
  const { GetParameterCommand, SSMClient } = await import('@aws-sdk/client-ssm');
  const ssm = hooked(new SSMClient({ region: AWS_REGION }));
  const out = await ssm.send(new GetParameterCommand({ Name: SECRETS_PARAMETER, WithDecryption: true }));
  return parse(JSON.parse(out.Parameter?.Value ?? '{}'), SECRETS_PARAMETER);
}

function parse(source: unknown, where: string): Secrets {
  const parsed = secretsSchema.safeParse(source);
  if (!parsed.success) {
    throw new Error(
      `Missing or invalid secrets in ${where}: ${parsed.error.issues.map((i) => i.path.join('.')).join(', ')}`,
    );
  }
  return parsed.data;
}

export function getSecrets(): Promise<Secrets> {
  pending ??= load().catch((err) => {
    pending = undefined; // a transient SSM failure must not poison the container
    throw err;
  });
  return pending;
}
