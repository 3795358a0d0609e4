/**
 * `npm start`: the whole of Snag on one URL, http://localhost:${PORT:-3000}, data under SNAG_DATA_DIR
 * (default .local/). Builds the dashboard and widget first unless SNAG_SKIP_BUILD=1 and they are built.
 * Ctrl-C, SIGTERM, a crash or a plain exit all stop every child, the DynamoDB JVM included.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { distExists, killBuild } from '../lib/local/build';
import { watchLaunchers } from '../lib/local/launcher-guard';
import { type LocalStack, startLocalStack } from '../lib/local/stack';
import { realVendorsOf, vendorBanner } from '../lib/local/vendors';

// Local settings and secrets (README "Configuration"); the real environment wins over the file.
if (existsSync('.env')) process.loadEnvFile('.env');

const port = Number(process.env.PORT ?? 3000);
const dataDir = resolve(process.env.SNAG_DATA_DIR || '.local');
const skipBuild = process.env.SNAG_SKIP_BUILD === '1';

if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PORT must be a port number, not ${process.env.PORT}`);
  process.exit(2);
}

let stack: LocalStack | undefined;
let exiting = false;

/** Every exit path comes here once; a second Ctrl-C while stopping exits at once (the exit hook still kills the JVM). */
async function shutdown(code: number, reason: string) {
  if (exiting) {
    process.exit(code);
  }
  exiting = true;
  killBuild();
  if (stack) console.log(`\n[snag] ${reason}: stopping…`);
  try {
    await stack?.stop();
  } catch (err) {
    console.error('[snag] error while stopping:', err);
    code ||= 1;
  }
  process.exit(code);
}

process.on('SIGINT', () => void shutdown(0, 'SIGINT'));
process.on('SIGTERM', () => void shutdown(0, 'SIGTERM'));
process.on('SIGHUP', () => void shutdown(0, 'SIGHUP'));
process.on('uncaughtException', (err) => {
  console.error('[snag] uncaught exception:', err);
  void shutdown(1, 'crash');
});
process.on('unhandledRejection', (err) => {
  console.error('[snag] unhandled rejection:', err);
  void shutdown(1, 'crash');
});

watchLaunchers((why) => void shutdown(0, why));

const build = !(skipBuild && distExists());
if (skipBuild && build) console.log('[snag] SNAG_SKIP_BUILD=1 but dist/ is incomplete: building anyway');

// Read before the stack sets the fakes' settings into the environment.
const configured = { ...process.env };
const realVendors = realVendorsOf(configured);
const started = Date.now();
try {
  stack = await startLocalStack({
    port,
    dataDir,
    build,
    schedules: true,
    // On by default, so every integration screen works with no vendor account; SNAG_VENDOR_FAKES=0 for
    // the real vendors (README "Vendor fakes").
    vendorFakes: process.env.SNAG_VENDOR_FAKES !== '0',
    // Per vendor: one the developer configured (.env or the environment) stays the real service.
    realVendors,
    // The stack has said why (DynamoDB Local kept dying); a half-working stack is worse than none.
    onFatal: () => void shutdown(1, 'a stand-in could not be kept running'),
  });
} catch (err) {
  console.error('[snag] could not start:', err instanceof Error ? err.message : err);
  await shutdown(1, 'start failed');
}
if (stack && !exiting) {
  const s = stack;
  const lines = [
    '',
    `  Snag is running at ${s.url}   (ready in ${((Date.now() - started) / 1000).toFixed(1)} s)`,
    '',
    `  Dashboard      ${s.url}/`,
    `  API health     ${s.url}/api/health`,
    `  Sent mail      ${s.url}/api/dev/emails   (inbox page: ${s.sesInboxUrl})`,
    `  Stripe         ${s.stripe ? `local stand-in ${s.stripe.endpoint} (no Stripe account needed)` : 'Stripe test mode (STRIPE_SECRET_KEY set)'}`,
    `  Data           ${s.dataDir}`,
    `  Stand-ins      DynamoDB ${s.endpoints.dynamodb} (pid ${s.dynamodbPid}), S3 ${s.endpoints.s3}, SQS ${s.endpoints.sqs}, SES ${s.endpoints.ses}`,
    ...(s.vendorFakes ? vendorBanner(s.vendorFakes, configured) : []),
    '',
    '  Ctrl-C stops everything.',
    '',
  ];
  console.log(lines.join('\n'));
}
