/**
 * The local stack (DESIGN.md section 4): every AWS stand-in on free internal ports, the pollers that play
 * Lambda's SQS event source, and one HTTP server that is CloudFront + API Gateway: dashboard at `/`, API
 * at `/api/*`, widget at `/widget/*`.
 *
 * One stack per process: the handlers' configuration, their AWS clients and the SES stand-in's mailbox are
 * process-wide. Two stacks side by side are two processes (`npm start` with another PORT and data dir).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SQSClient } from '@aws-sdk/client-sqs';
import { type QueueName, queueNames, queueUrlVariable } from '#contracts/manifest';
import { reporterPagePath } from '#contracts/reporter';
import { resetConfig } from '#runtime/config';
import { errorResponse } from '#runtime/http';
import { ALLOW_LOCAL_VARIABLE } from '#runtime/outbound';
import { retryDelaysVariable, staleAfterVariable } from '#runtime/retry';
import { scheduleDecls } from '../../functions/manifests';
import { scheduleEntry } from '../resources';
import { dashboardCsp } from '../web-headers';
import { distDir as defaultDistDir, runBuild } from './build';
import { localCredentials } from './credentials';
import { ensureTable, type LocalDynamo, startDynamo } from './dynamodb';
import { loadApiHandler, loadConsumer, loadDeadLetterConsumer, repoRoot } from './functions';
import { createGateway } from './gateway';
import { sendResult } from './http-reply';
import { asFunction } from './invocation';
import { consoleLog, type StackLog } from './log';
import { loopbackRedirect } from './loopback';
import { type Poller, startPoller } from './poller';
import { type LocalS3, startS3 } from './s3';
import { ensureLocalSecrets } from './secrets';
import { type LocalSes, startSes } from './ses';
import { type LocalQueue, type LocalSqs, type QueueOverrides, staleAfter, startSqs } from './sqs';
import { createStaticHandler } from './static';
import { type LocalStripe, startStripe } from './stripe';
import { type ConfigurableVendor, startVendorFakes, type VendorFakes } from './vendors';

export interface LocalStackOptions {
  /** Port of the one URL; 0 picks a free one (tests). */
  port: number;
  /** Where DynamoDB and S3 keep their data (SNAG_DATA_DIR). */
  dataDir: string;
  /** Interface to listen on; loopback by default, since the stand-ins take any credentials. */
  host?: string;
  /** Run `npm run build` first. */
  build?: boolean;
  /** Serve the dashboard and widget (from `distDir`); off, only /api answers. */
  serveStatic?: boolean;
  /** Where the built bundles are: `<distDir>/web`, `<distDir>/widget`. */
  distDir?: string;
  /** Queue settings other than lib/resources.ts (tests use short visibility timeouts). */
  queues?: QueueOverrides;
  region?: string;
  log?: StackLog;
  /** Run the manifests' schedules on their local timers (`npm start`); tests call `runSchedule`. */
  schedules?: boolean;
  /** Start the GitLab, Jira, Slack, Asana, GitHub and Linear fakes and point the functions at them (`npm start` unless SNAG_VENDOR_FAKES=0). */
  vendorFakes?: boolean;
  /** With `vendorFakes`: the vendors that keep their real settings (`realVendorsOf`, `npm start`). */
  realVendors?: readonly ConfigurableVendor[];
  /**
   * A DynamoDB Local already running, to use instead of starting a JVM (the test suites share one per
   * run: the JVM is most of a stack's start). The stack then gets a table of its own name and leaves the
   * JVM running when it stops.
   */
  sharedDynamo?: { endpoint: string; pid: number };
  /**
   * Called when a part cannot be kept running (DynamoDB Local kept dying after restarts); `npm start` exits
   * with the message. Without it the stack stays up and answers NOT_READY.
   */
  onFatal?: (err: Error) => void;
}

export interface LocalStack {
  url: string;
  port: number;
  sesInboxUrl: string;
  dataDir: string;
  region: string;
  endpoints: { dynamodb: string; s3: string; sqs: string; ses: string };
  /** The DynamoDB Local JVM, the one process outside this one (a new pid after it was restarted). */
  readonly dynamodbPid: number;
  tableName: string;
  bucket: string;
  queues: Record<QueueName, LocalQueue>;
  /** The Stripe stand-in, unless real Stripe keys are set (README "Billing locally"). */
  stripe?: LocalStripe;
  /** Runs a scheduled function (functions/schedules/<name>.ts) now, as the schedule would. */
  runSchedule(name: string): Promise<unknown>;
  /** The vendor fakes, when started (`vendorFakes`). */
  vendorFakes?: VendorFakes;
  stop(): Promise<void>;
}

export const localNames = { table: 'snag', bucket: 'snag-uploads' } as const;

let active = false;

export async function startLocalStack(opts: LocalStackOptions): Promise<LocalStack> {
  if (active) throw new Error('a local stack is already running in this process (start another process)');
  active = true;
  const log = opts.log ?? consoleLog;
  const region = opts.region ?? 'eu-central-1';
  const dataDir = resolve(opts.dataDir);
  const host = opts.host ?? '127.0.0.1';
  // A shared DynamoDB Local holds the tables of other stacks: this one's gets a name of its own.
  const tableName = opts.sharedDynamo ? `${localNames.table}-${randomUUID().slice(0, 8)}` : localNames.table;
  // Lambda's runtime is what matters for support; locally the SDK's Node 20 notice is only noise.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

  let ready = false;
  let server: Server | undefined;
  let dynamo: LocalDynamo | undefined;
  let s3: LocalS3 | undefined;
  let sqs: LocalSqs | undefined;
  let ses: LocalSes | undefined;
  let pollers: Poller[] = [];
  let sqsClient: SQSClient | undefined;
  let stripe: LocalStripe | undefined;
  const timers: NodeJS.Timeout[] = [];
  let fakes: VendorFakes | undefined;

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      ready = false;
      for (const t of timers) clearInterval(t);
      if (server) {
        const closed = new Promise<void>((done) => server?.close(() => done()));
        server.closeAllConnections();
        await closed;
      }
      await Promise.allSettled(pollers.map((p) => p.stop()));
      sqsClient?.destroy();
      const results = await Promise.allSettled([
        dynamo?.stop(),
        s3?.stop(),
        sqs?.stop(),
        ses?.stop(),
        stripe?.stop(),
        fakes?.stop(),
      ]);
      active = false;
      const failed = results.find((r) => r.status === 'rejected');
      if (failed) throw (failed as PromiseRejectedResult).reason;
    })();
    return stopping;
  };

  try {
    if (opts.build) {
      log.info('building the dashboard and widget (npm run build)…');
      await runBuild();
    }

    // The one URL first: its port is part of the configuration (APP_ORIGIN), and until the stand-ins are
    // up it answers NOT_READY rather than refusing connections.
    // Not ready, too, while DynamoDB Local is restarting: every call would fail, so say 503 rather than 500.
    const gateway = createGateway({
      isReady: () => ready && (dynamo?.up ?? false),
      load: loadApiHandler,
      log,
    });
    const dist = opts.distDir ?? defaultDistDir;
    // The loader route wraps the built loader of the bundles this stack serves, not the repository's.
    if (opts.distDir) process.env.WIDGET_DIR = resolve(opts.distDir, 'widget');
    const statics =
      (opts.serveStatic ?? true)
        ? createStaticHandler({
            webDir: resolve(dist, 'web'),
            widgetDir: resolve(dist, 'widget'),
            // Downloads redirect to the S3 stand-in. Google's origins are allowed: a local build may carry
            // VITE_GOOGLE_CLIENT_ID, and the policy is otherwise production's.
            csp: () => (s3 ? dashboardCsp({ uploadsOrigin: s3.endpoint, google: true }) : undefined),
          })
        : undefined;
    let url = '';
    server = createServer((req, res) => {
      // The reporter's status page `/r/{token}` is an API route under another name (as CloudFront rewrites it).
      const reporterPage = reporterPagePath(req.url ?? '/');
      if (reporterPage) req.url = reporterPage;
      const path = req.url ?? '/';
      const api = path === '/api' || path.startsWith('/api/') || path.startsWith('/api?') || !statics;
      const redirect = api ? undefined : loopbackRedirect(req, url);
      if (redirect) {
        res.writeHead(308, { location: redirect, 'cache-control': 'no-store' }).end();
        return;
      }
      const work = api ? gateway(req, res) : statics(req, res);
      work.catch((err) => {
        log.error(`request failed: ${String(err)}`);
        if (!res.headersSent) sendResult(res, errorResponse('SYSTEM_ERROR'));
        else res.destroy();
      });
    });
    const listening = server;
    await new Promise<void>((done, fail) => {
      listening.once('error', fail);
      listening.listen(opts.port, host, () => done());
    });
    const port = (listening.address() as AddressInfo).port;
    url = `http://localhost:${port}`;

    const [d, s, q, m] = await Promise.allSettled([
      opts.sharedDynamo
        ? Promise.resolve<LocalDynamo>({ ...opts.sharedDynamo, up: true, stop: async () => {} })
        : startDynamo(dataDir, region, {
            onDown: (line) => log.warn(line),
            onUp: (line) => log.info(line),
            onGiveUp: (err) => {
              log.error(err.message);
              opts.onFatal?.(err);
            },
          }),
      startS3(dataDir, localNames.bucket),
      startSqs(region, opts.queues),
      startSes(),
    ]);
    if (d.status === 'fulfilled') dynamo = d.value;
    if (s.status === 'fulfilled') s3 = s.value;
    if (q.status === 'fulfilled') sqs = q.value;
    if (m.status === 'fulfilled') ses = m.value;
    const failure = [d, s, q, m].find((r) => r.status === 'rejected');
    if (failure) throw (failure as PromiseRejectedResult).reason;
    if (!dynamo || !s3 || !sqs || !ses) throw new Error('a stand-in did not start');
    await ensureTable(dynamo.endpoint, region, tableName);

    // Real Stripe (test mode) when both keys are set; otherwise the stand-in, with a generated webhook secret.
    const realStripe =
      !!process.env.STRIPE_WEBHOOK_SECRET &&
      !!process.env.STRIPE_SECRET_KEY &&
      !process.env.STRIPE_SECRET_KEY.startsWith('sk_test_local_');
    // Handlers read their configuration on first use; set it before any of them is loaded.
    ensureLocalSecrets(dataDir);
    if (!realStripe) {
      const secretKey = `sk_test_local_${randomBytes(16).toString('hex')}`;
      stripe = await startStripe({
        secretKey,
        webhookSecret: process.env.STRIPE_WEBHOOK_SECRET ?? '',
        webhookUrl: () => `${url}/api/stripe/webhook`,
      });
      Object.assign(process.env, { STRIPE_SECRET_KEY: secretKey, STRIPE_API_URL: stripe.endpoint });
    }
    if (opts.vendorFakes) {
      fakes = await startVendorFakes({
        dataDir,
        warn: (line) => log.warn(line),
        ...(opts.realVendors ? { real: opts.realVendors } : {}),
      });
      Object.assign(process.env, fakes.env);
    }
    Object.assign(process.env, {
      SNAG_STAGE: 'local',
      AWS_REGION: region,
      AWS_ACCESS_KEY_ID: localCredentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: localCredentials.secretAccessKey,
      TABLE_NAME: tableName,
      UPLOADS_BUCKET: localNames.bucket,
      // One process serves every function, so it carries every name any manifest may declare.
      ...Object.fromEntries(queueNames.map((q) => [queueUrlVariable(q), sqs?.queues[q].url])),
      // The backoff the queues were made with (tests shorten it); functions/runtime/retry.ts reads it.
      ...Object.fromEntries(
        queueNames.map((q) => [retryDelaysVariable(q), sqs?.queues[q].settings.retryDelaysSeconds.join(',')]),
      ),
      // When Sync may start a stuck status 1 again, from the same (possibly shortened) settings.
      ...Object.fromEntries(
        queueNames.map((q) => [staleAfterVariable(q), String(staleAfter(sqs!.queues[q].settings))]),
      ),
      APP_ORIGIN: url,
      DYNAMODB_ENDPOINT: dynamo.endpoint,
      S3_ENDPOINT: s3.endpoint,
      SQS_ENDPOINT: sqs.endpoint,
      SES_ENDPOINT: ses.endpoint,
      // Local receivers and vendor fakes on loopback (functions/runtime/outbound.ts); never set in AWS.
      [ALLOW_LOCAL_VARIABLE]: '1',
    });
    delete process.env.AWS_SESSION_TOKEN;
    delete process.env.AWS_PROFILE;
    resetConfig();

    const client = new SQSClient({ region, endpoint: sqs.endpoint, credentials: localCredentials });
    sqsClient = client;
    pollers = Object.values(sqs.queues).flatMap((queue) => [
      startPoller({ client, queue, region, load: loadConsumer, log }),
      ...(queue.settings.deadLetter
        ? [startPoller({ client, queue, region, load: loadDeadLetterConsumer, log, deadLetter: true })]
        : []),
    ]);
    ready = true;

    const runSchedule = (name: string) =>
      asFunction(`schedule:${name}`, async () => {
        const mod = (await import(pathToFileURL(resolve(repoRoot, scheduleEntry(name))).href)) as {
          handler: (event: unknown, context: unknown) => Promise<unknown>;
        };
        return mod.handler({ source: 'local.schedule' }, { awsRequestId: `schedule-${Date.now()}` });
      });
    if (opts.schedules) {
      for (const [name, decl] of Object.entries(scheduleDecls)) {
        const timer = setInterval(() => {
          runSchedule(name).catch((err) => log.error(`schedule ${name} failed: ${String(err)}`));
        }, decl.localEveryMs);
        timer.unref();
        timers.push(timer);
      }
    }
    // Where the ops command (bin/ops.ts) finds this stack's table while it runs.
    writeFileSync(
      resolve(dataDir, 'stack.json'),
      `${JSON.stringify(
        {
          url,
          region,
          tableName,
          dynamodb: dynamo.endpoint,
          ses: ses.endpoint,
          s3: s3.endpoint,
          bucket: localNames.bucket,
        },
        null,
        2,
      )}\n`,
    );

    const running = dynamo;
    return {
      url,
      port,
      sesInboxUrl: ses.inboxUrl,
      dataDir,
      region,
      endpoints: { dynamodb: dynamo.endpoint, s3: s3.endpoint, sqs: sqs.endpoint, ses: ses.endpoint },
      get dynamodbPid() {
        return running.pid;
      },
      tableName,
      bucket: localNames.bucket,
      queues: sqs.queues,
      ...(stripe ? { stripe } : {}),
      runSchedule,
      ...(fakes ? { vendorFakes: fakes } : {}),
      stop,
    };
  } catch (err) {
    await stop().catch(() => {});
    throw err;
  }
}
