/**
 * Local secrets: what SSM holds in AWS (functions/runtime/secrets.ts) comes from the environment here. A value
 * set in the environment (or .env) wins; otherwise a random one is generated once and kept in the data
 * directory, so sessions and challenges survive a restart of `npm start`.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const generated = ['ALTCHA_HMAC_KEY', 'STRIPE_WEBHOOK_SECRET', 'OAUTH_STATE_KEY'] as const;
/** Generated values that follow a vendor's shape (Stripe's webhook secrets start with whsec_). */
const prefixes: Partial<Record<(typeof generated)[number], string>> = { STRIPE_WEBHOOK_SECRET: 'whsec_' };

export function ensureLocalSecrets(dataDir: string): void {
  const file = join(dataDir, 'secrets.json');
  const stored: Record<string, string> = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  let changed = false;
  for (const name of generated) {
    if (process.env[name]) continue;
    if (!stored[name]) {
      stored[name] = `${prefixes[name] ?? ''}${randomBytes(32).toString('base64url')}`;
      changed = true;
    }
    process.env[name] = stored[name];
  }
  if (changed) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, `${JSON.stringify(stored, null, 2)}\n`, { mode: 0o600 });
  }
}
