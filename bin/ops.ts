/**
 * Operator commands (docs/operations.md "Billing"):
 *
 *   npm run ops -- grant-business <email> <months> [--amount <cents>] [--team <teamId>]
 *   npm run ops -- close-business-request <email> [--team <teamId>]
 *   npm run ops -- send-reminders
 *   npm run ops -- flush-notifications     (the every-minute outbox flush, now; docs/operations.md)
 *   npm run ops -- send-digests            (the 07:00 UTC digest of new issues, now)
 *   npm run ops -- migrate [--dry-run] [--segments <n>]
 *   npm run ops -- check-index <projectId>   (issue 23: the lists' rank indexes against the issue headers)
 *   npm run ops -- index-issues [projectId]  (issue 23: index the issues filed before triage, once after upgrading)
 *   npm run ops -- insights-backfill [projectId]  (issue 37: count the issues filed before Insights, once after upgrading)
 *   npm run ops -- merge-index [projectId]   (issue 37: build the lists' merge index from the headers, once after
 *                                             upgrading; also a repair: idempotent)
 *   npm run ops -- retention [--now <date>]  (delete resolved issues past their project's retention, now;
 *                                             --now sets the job's clock, local stack only: docs/retention.md)
 *
 * Against the running local stack by default (it writes $SNAG_DATA_DIR/stack.json with its table's
 * endpoint), or against AWS with `--aws` (or TABLE_NAME in the environment): `--table <name>` (or
 * TABLE_NAME), `--region <region>` (or AWS_REGION), credentials from the usual AWS chain, and for mail
 * `--mail-from` (or MAIL_FROM) and `--app-origin` (or APP_ORIGIN).
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { localCredentials } from '../lib/local/credentials';
import { ensureLocalSecrets } from '../lib/local/secrets';

const usage = `usage:
  npm run ops -- grant-business <email> <months> [--amount <cents>] [--team <teamId>] [--aws --table <name> --region <region>]
  npm run ops -- close-business-request <email> [--team <teamId>] [--aws --table <name> --region <region>]
  npm run ops -- send-reminders [--aws --table <name> --region <region>]
  npm run ops -- flush-notifications | send-digests [--aws --table <name> --region <region>]
  npm run ops -- migrate [--dry-run] [--segments <n>] [--aws --table <name> --region <region>]
  npm run ops -- check-index <projectId> [--aws --table <name> --region <region>]
  npm run ops -- index-issues [projectId] [--aws --table <name> --region <region>]
  npm run ops -- insights-backfill [projectId] [--aws --table <name> --region <region>]
  npm run ops -- merge-index [projectId] [--aws --table <name> --region <region>]
  npm run ops -- retention [--now <YYYY-MM-DD or ISO time>] [--aws --table <name> --region <region> --bucket <name>]
options: --data-dir <dir> (local stack's data dir, default $SNAG_DATA_DIR or .local)
         --team <teamId> (the team to grant or close for; default the user's personal team)`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    aws: { type: 'boolean', default: false },
    table: { type: 'string' },
    region: { type: 'string' },
    amount: { type: 'string' },
    team: { type: 'string' },
    'dry-run': { type: 'boolean', default: false },
    segments: { type: 'string' },
    'data-dir': { type: 'string' },
    'mail-from': { type: 'string' },
    'app-origin': { type: 'string' },
    now: { type: 'string' },
    bucket: { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});

function fail(message: string): never {
  console.error(`${message}\n\n${usage}`);
  process.exit(2);
}

function configure() {
  const aws = values.aws || (!!process.env.TABLE_NAME && !values['data-dir']);
  if (aws) {
    const table = values.table ?? process.env.TABLE_NAME;
    const region = values.region ?? process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION;
    if (!table || !region) fail('AWS needs --table (or TABLE_NAME) and --region (or AWS_REGION)');
    Object.assign(process.env, {
      SNAG_STAGE: process.env.SNAG_STAGE ?? 'prod',
      TABLE_NAME: table,
      AWS_REGION: region,
      APP_ORIGIN: values['app-origin'] ?? process.env.APP_ORIGIN ?? 'https://localhost',
      ...(values['mail-from'] ? { MAIL_FROM: values['mail-from'] } : {}),
      ...(values.bucket ? { UPLOADS_BUCKET: values.bucket } : {}),
    });
    return `AWS table ${table} (${region})`;
  }
  const dataDir = resolve(values['data-dir'] ?? process.env.SNAG_DATA_DIR ?? '.local');
  const file = resolve(dataDir, 'stack.json');
  if (!existsSync(file)) fail(`No local stack found (${file}): start it with npm start, or use --aws`);
  const stack = JSON.parse(readFileSync(file, 'utf8')) as {
    url: string;
    region: string;
    tableName: string;
    dynamodb: string;
    ses: string;
    s3?: string;
    bucket?: string;
  };
  Object.assign(process.env, {
    SNAG_STAGE: 'local',
    TABLE_NAME: stack.tableName,
    AWS_REGION: stack.region,
    APP_ORIGIN: stack.url,
    DYNAMODB_ENDPOINT: stack.dynamodb,
    SES_ENDPOINT: stack.ses,
    ...(stack.s3 && stack.bucket ? { S3_ENDPOINT: stack.s3, UPLOADS_BUCKET: stack.bucket } : {}),
    AWS_ACCESS_KEY_ID: localCredentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: localCredentials.secretAccessKey,
  });
  delete process.env.AWS_PROFILE;
  delete process.env.AWS_SESSION_TOKEN;
  return `local stack ${stack.url}`;
}

async function main() {
  const [command, ...args] = positionals;
  if (values.help || !command) fail('');
  process.env.LOG_LEVEL ??= 'warn';
  if (command === 'grant-business') {
    const [email, monthsText] = args;
    const months = Number(monthsText);
    if (!email || !Number.isInteger(months) || months < 1 || months > 120)
      fail('grant-business needs an email and a whole number of months (1–120)');
    const amount = values.amount === undefined ? 0 : Number(values.amount);
    if (!Number.isInteger(amount) || amount < 0) fail('--amount is a whole number of cents');
    const where = configure();
    // Loaded after the environment is set: the functions read their configuration on first use.
    const { grantBusiness } = await import('../functions/billing/service');
    const result = await grantBusiness(email, months, amount, values.team);
    console.log(`Granted BUSINESS_PLAN to ${result.username} until ${result.planExpire} (${where})`);
    return;
  }
  if (command === 'close-business-request') {
    const [email] = args;
    if (!email) fail("close-business-request needs the client's email");
    const where = configure();
    const { closeBusinessRequest } = await import('../functions/billing/service');
    const result = await closeBusinessRequest(email, values.team);
    console.log(`Closed the pending Business request of ${result.username} (${where})`);
    return;
  }
  if (command === 'send-reminders') {
    const where = configure();
    const { handler } = await import('../functions/schedules/reminders');
    const result = await handler();
    console.log(
      `Sent ${result.sent.length} reminder(s) (${where})${result.sent.length ? `: ${result.sent.join(', ')}` : ''}`,
    );
    return;
  }
  if (command === 'flush-notifications' || command === 'send-digests') {
    const where = configure();
    // The mails' unsubscribe links are signed with the secrets: SSM's in AWS (SECRETS_PARAMETER, never a
    // key made up here, whose links would not verify), the local stack's kept key locally.
    if (where.startsWith('AWS')) {
      if (!process.env.SECRETS_PARAMETER)
        fail(`${command} in AWS needs SECRETS_PARAMETER (the secrets' SSM name)`);
    } else ensureLocalSecrets(resolve(values['data-dir'] ?? process.env.SNAG_DATA_DIR ?? '.local'));
    const name = command === 'flush-notifications' ? 'notifications' : 'digest';
    const { handler } = (await import(
      `../functions/schedules/${name}.ts`
    )) as typeof import('../functions/schedules/notifications');
    const r = await handler();
    console.log(
      `${command}: ${r.entries} outbox entr(ies), ${r.mails} mail(s), ${r.failed} failed (${where})`,
    );
    return;
  }
  if (command === 'migrate') {
    // Pre-team accounts get their personal team with the plan, billing details and counters, and their
    // billing items move into it (docs/data-model.md 4.12 steps 1 and 3); idempotent and resumable.
    const segments = values.segments === undefined ? 4 : Number(values.segments);
    if (!Number.isInteger(segments) || segments < 1 || segments > 64)
      fail('--segments is a whole number (1–64)');
    const where = configure();
    const { migrateAll } = await import('../functions/billing/migrate');
    const dryRun = values['dry-run'] ?? false;
    const r = await migrateAll({ segments, dryRun });
    console.log(
      `${dryRun ? 'Dry run: would create' : 'Created'} ${r.created} personal team(s), ${dryRun ? 'would copy' : 'copied'} the plan to ${r.copied}; ${r.existing} of ${r.accounts} account(s) had theirs (${where})`,
    );
    return;
  }
  if (command === 'index-issues') {
    // docs/data-model.md 4.13: issues filed before triage get their fields, facets and place in the
    // `updated` order, so every filter and sort finds them; one project, or all. Idempotent.
    const [projectId] = args;
    const where = configure();
    const { indexAllLegacyIssues, indexLegacyIssues } = await import('../functions/issues/backfill');
    const r = projectId
      ? { ...(await indexLegacyIssues(projectId)), projects: 1 }
      : await indexAllLegacyIssues();
    console.log(
      `Indexed ${r.indexed} issue(s) filed before triage in ${r.projects} project(s); ${r.skipped} changed meanwhile (${where})`,
    );
    return;
  }
  if (command === 'insights-backfill') {
    // docs/insights.md "Existing issues": the reports and resolutions of issues filed before Insights
    // counted once (each header's marker is the condition); one project, or all. Idempotent.
    const [projectId] = args;
    const where = configure();
    const { backfillAllInsights, backfillInsights } = await import('../functions/issues/insights-backfill');
    const r = projectId
      ? { ...(await backfillInsights(projectId)), projects: 1 }
      : await backfillAllInsights();
    console.log(
      `Counted ${r.reports} report(s) and ${r.resolutions} resolution(s) in ${r.projects} project(s); ${r.skipped} changed meanwhile (${where})`,
    );
    return;
  }
  if (command === 'merge-index') {
    // docs/data-model.md 4.19 "Merge index": issues merged before the index existed make `sort=reports` and
    // `collapse=1` exact; one project, or all. Rebuilt from the headers and checked, again if a merge raced it.
    const [projectId] = args;
    const where = configure();
    const { rebuildMergeIndex } = await import('../functions/issues/merge-index');
    const { everyProjectId } = await import('../functions/issues/backfill');
    let projects = 0;
    const unsettled: string[] = [];
    const ids: AsyncIterable<string> | string[] = projectId ? [projectId] : everyProjectId();
    for await (const id of ids) {
      const r = await rebuildMergeIndex(id);
      projects++;
      if (!r.consistent) unsettled.push(id);
    }
    console.log(`Built the merge index of ${projects} project(s) (${where})`);
    for (const id of unsettled) console.log(`still changing, run again: ${id}`);
    if (unsettled.length) process.exitCode = 1;
    return;
  }
  if (command === 'check-index') {
    // docs/data-model.md 4.13: META's counters, STATS/BLOCK and the facet and `updated` indexes recomputed
    // from the headers; prints each difference, exits 1 when there is one.
    const [projectId] = args;
    if (!projectId) fail('check-index needs a project id');
    const where = configure();
    const { checkRankIndex } = await import('../functions/issues/rank-check');
    const { checkMergeIndex } = await import('../functions/issues/merge-index');
    // The merge index (4.19) with the others: `npm run ops -- merge-index <projectId>` repairs it.
    const problems = [...(await checkRankIndex(projectId)), ...(await checkMergeIndex(projectId))];
    for (const p of problems) console.log(p);
    console.log(`${problems.length} difference(s) in project ${projectId} (${where})`);
    if (problems.length) process.exitCode = 1;
    return;
  }
  if (command === 'retention') {
    // docs/retention.md: resolved issues past their project's period deleted with their files, as the
    // daily schedule does. `--now` moves the job's clock (local stack only) so a period can be tried today.
    const where = configure();
    let now: number | undefined;
    if (values.now !== undefined) {
      if (where.startsWith('AWS')) fail('--now is for the local stack only');
      now = Date.parse(values.now);
      if (!Number.isFinite(now)) fail('--now is a date (2027-01-01) or an ISO time');
    }
    if (where.startsWith('AWS') && !process.env.UPLOADS_BUCKET)
      fail('retention in AWS needs --bucket (or UPLOADS_BUCKET)');
    const { handler } = await import('../functions/schedules/retention');
    const r = await handler(now === undefined ? {} : { now });
    for (const p of r.projects)
      console.log(`project ${p.projectId} (${p.days} days): ${p.deleted} issue(s) deleted`);
    console.log(
      `Retention: ${r.deleted} issue(s) deleted in ${r.projects.length} project(s)${r.more ? ', more left for the next run' : ''}; ${r.pendingSwept} pending upload(s) swept (${where}${now === undefined ? '' : `, clock ${new Date(now).toISOString()}`})`,
    );
    return;
  }
  fail(`unknown command ${command}`);
}

main().catch((err) => {
  const code = (err as { code?: string }).code;
  console.error(code === 'NOT_FOUND' ? 'No account with that email' : err);
  process.exit(1);
});
