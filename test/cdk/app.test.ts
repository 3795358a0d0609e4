/**
 * The dev stage, with a fake front-end build so the asset deployments (and their acknowledgements) are
 * part of the synth. Synthesized once for the whole file.
 */

import { runInNewContext } from 'node:vm';
import { Match } from 'aws-cdk-lib/assertions';
import { CachePolicy } from 'aws-cdk-lib/aws-cloudfront';
import { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { AwsSolutionsChecks, NagPack } from 'cdk-nag';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { type Needs, type QueueName, queueNames, queueUrlVariable, variablesFor } from '#contracts/manifest';
import { reporterPagePath } from '#contracts/reporter';
import { routeKey } from '#contracts/routes';
import { configSchema, EDGE_SECRET_HEADER } from '#runtime/config';
import { ALLOW_LOCAL_VARIABLE } from '#runtime/outbound';
import { functionNeeds, queueDecls, scheduleDecls } from '../../functions/manifests';
import { deployedRoutes, routes } from '../../functions/routes';
import { compressedApiPaths } from '../../lib/local/compress';
import { table, uploads } from '../../lib/resources';
import { deployedResources, routeThrottles, throttleClassOf } from '../../lib/stacks/api';
import { loaderPath, reporterPageCode, spaFallbackCode } from '../../lib/stacks/web';
import { acknowledgements, fakeBuild, logicalId, type Synthesized, synth } from './synth';

let s: Synthesized;
let nagRuns = 0;

beforeAll(() => {
  // Count the plugin's runs, so a passing report cannot come from nag never having been called.
  const validate = AwsSolutionsChecks.prototype.validate;
  vi.spyOn(AwsSolutionsChecks.prototype, 'validate').mockImplementation(function (
    this: AwsSolutionsChecks,
    ctx,
  ) {
    nagRuns++;
    return validate.call(this, ctx);
  });
  s = synth({ stage: 'dev', ...fakeBuild() });
  vi.restoreAllMocks();
});

const resourcesOf = (type: string) => s.template.findResources(type);
const functionOf = (resource: string) => s.stack.api.functions.get(resource as never)!;

describe('HTTP API from the route table', () => {
  it('deploys the intake preflights as routes of their own', () => {
    const keys = Object.values(resourcesOf('AWS::ApiGatewayV2::Route')).map((r) => r.Properties.RouteKey);
    expect(keys).toEqual(
      expect.arrayContaining(['OPTIONS /api/website/{id}/upload', 'OPTIONS /api/website/{id}/request']),
    );
    expect(keys).not.toContain('POST /api/dev/plan');
  });

  it('has exactly the deployed routes, and no local-only one', () => {
    const keys = Object.values(resourcesOf('AWS::ApiGatewayV2::Route')).map((r) => r.Properties.RouteKey);
    expect([...keys].sort()).toEqual(deployedRoutes().map(routeKey).sort());
    for (const r of routes.filter((r) => 'localOnly' in r && r.localOnly))
      expect(keys).not.toContain(routeKey(r));
  });

  it('integrates each route with the function of its resource', () => {
    const integrations = resourcesOf('AWS::ApiGatewayV2::Integration');
    for (const route of Object.values(resourcesOf('AWS::ApiGatewayV2::Route'))) {
      const def = deployedRoutes().find((r) => routeKey(r) === route.Properties.RouteKey)!;
      const integrationId = route.Properties.Target['Fn::Join'][1][1].Ref as string;
      const uri = integrations[integrationId]!.Properties.IntegrationUri;
      expect(uri).toEqual({ 'Fn::GetAtt': [logicalId(functionOf(def.resource).fn), 'Arn'] });
    }
  });

  it('lets API Gateway invoke each API function through one permission scoped to this API', () => {
    const permissions = Object.values(resourcesOf('AWS::Lambda::Permission')).filter(
      (p) => p.Properties.Principal === 'apigateway.amazonaws.com',
    );
    expect(permissions).toHaveLength(deployedResources().length);
    const apiId = logicalId(s.stack.api.httpApi);
    for (const resource of deployedResources()) {
      const fnId = logicalId(functionOf(resource).fn);
      const own = permissions.filter((p) => JSON.stringify(p.Properties.FunctionName).includes(fnId));
      expect(own, resource).toHaveLength(1);
      expect(JSON.stringify(own[0]!.Properties.SourceArn)).toContain(apiId);
    }
    // CloudFormation's cap (TooManyResourcesInStack at synth): the stack keeps room for what comes next.
    expect(Object.keys(s.template.toJSON().Resources).length).toBeLessThanOrEqual(450);
  });

  it('builds one arm64 Node.js function per resource with deployed routes', () => {
    const apiFunctions = s.stack.api.node.findAll().filter((c) => c instanceof CfnFunction);
    expect(apiFunctions).toHaveLength(deployedResources().length);
    expect(deployedResources().length).toBeGreaterThan(0);
    for (const resource of deployedResources()) {
      const f = s.template.toJSON().Resources[logicalId(functionOf(resource).fn)];
      expect(f.Properties).toMatchObject({ Architectures: ['arm64'], Handler: 'index.handler' });
      expect(f.Properties.Runtime).toMatch(/^nodejs2[24]\.x$/);
    }
  });

  it('logs access and throttles the default stage, and sets no CORS', () => {
    s.template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      AccessLogSettings: Match.objectLike({ DestinationArn: Match.anyValue() }),
      DefaultRouteSettings: Match.objectLike({ ThrottlingRateLimit: Match.anyValue() }),
    });
    s.template.hasResourceProperties('AWS::ApiGatewayV2::Api', { CorsConfiguration: Match.absent() });
  });
});

describe('functions', () => {
  const all = () => [
    ...[...s.stack.api.functions].map(([name, f]) => ({ name: `api:${name}`, f })),
    ...queueNames.map((q) => ({ name: `consumer:${q}`, f: s.stack.consumers.functions[q] })),
    ...Object.entries(s.stack.consumers.deadLetterFunctions).map(([q, f]) => ({ name: `dlq:${q}`, f: f! })),
    ...[...s.stack.schedules.functions].map(([name, f]) => ({ name: `schedule:${name}`, f })),
  ];

  it('get exactly the variables their manifest declares, with log groups of their own', () => {
    const required = Object.entries(configSchema.shape)
      .filter(([, schema]) => !schema.safeParse(undefined).success)
      .map(([name]) => name);
    const declarable = ['TABLE_NAME', 'UPLOADS_BUCKET', 'MAIL_FROM', 'SECRETS_PARAMETER', 'WIDGET_DIR'];
    declarable.push(...queueNames.map(queueUrlVariable));
    for (const { name, f } of all()) {
      const vars = s.template.toJSON().Resources[logicalId(f.fn)].Properties.Environment.Variables;
      const needs = functionNeeds().get(name)!;
      for (const v of [...required, 'SNAG_STAGE', ...variablesFor(needs)])
        expect(vars, `${name} ${v}`).toHaveProperty(v);
      for (const v of declarable.filter((d) => !variablesFor(needs).includes(d)))
        expect(vars, `${name} ${v}`).not.toHaveProperty(v);
      expect(vars.APP_ORIGIN).toEqual({
        'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [logicalId(s.stack.web.distribution), 'DomainName'] }]],
      });
      const props = s.template.toJSON().Resources[logicalId(f.fn)].Properties;
      expect(props.LoggingConfig.LogGroup).toEqual({ Ref: expect.any(String) });
    }
    expect(
      s.template.toJSON().Resources[logicalId(functionOf('auth').fn)].Properties.Environment.Variables
        .SECRETS_PARAMETER,
    ).toBe('/snag/dev/secrets');
    s.template.allResourcesProperties('AWS::Logs::LogGroup', { RetentionInDays: 7 });
  });

  it('never carry the local outbound allowance (loopback webhook and vendor targets are local-only)', () => {
    for (const { name, f } of all()) {
      const vars = s.template.toJSON().Resources[logicalId(f.fn)].Properties.Environment.Variables;
      expect(vars, name).not.toHaveProperty(ALLOW_LOCAL_VARIABLE);
    }
    expect(JSON.stringify(s.template.toJSON())).not.toContain(ALLOW_LOCAL_VARIABLE);
  });

  /**
   * Each role's grants as "<action> <resource>" lines, resources named as the manifest names them (table,
   * index, prefixes, queues, mail, secrets). Written independently of lib/stacks/grants.ts, so a grant that
   * is missing or one too many fails here.
   */
  function grantsOf(roleId: string): string[] {
    const ids = {
      table: logicalId(s.stack.data.table),
      bucket: logicalId(s.stack.data.uploads),
      identity: logicalId(s.stack.mail.identity),
      ...Object.fromEntries(queueNames.map((q) => [q, logicalId(s.stack.queues.queues[q])])),
      ...Object.fromEntries(queueNames.map((q) => [`${q}Dlq`, logicalId(s.stack.queues.deadLetters[q])])),
    } as Record<string, string>;
    const label = (resource: unknown, condition: unknown): string => {
      const text = JSON.stringify(resource);
      if (text === '"*"') return '*';
      if (text.includes('"ssm"') || text.includes(':parameter/')) return 'secrets';
      if (text.includes(ids.identity!)) return 'mail';
      for (const q of queueNames) {
        if (text === JSON.stringify({ 'Fn::GetAtt': [ids[q], 'Arn'] })) return `queue:${q}`;
        if (text === JSON.stringify({ 'Fn::GetAtt': [ids[`${q}Dlq`], 'Arn'] })) return `dlq:${q}`;
      }
      if (text === JSON.stringify({ 'Fn::GetAtt': [ids.table, 'Arn'] })) return 'table';
      if (text.includes(ids.table!) && text.includes('/index/'))
        return `index:${text.match(/index\/(\w+)/)?.[1]}`;
      const prefix = text.match(/"\/([a-z]+\/)\*"/)?.[1];
      if (text.includes(ids.bucket!) && prefix) return `objects:${prefix}`;
      if (text === JSON.stringify({ 'Fn::GetAtt': [ids.bucket, 'Arn'] }))
        return condition ? `bucket:${JSON.stringify(condition)}` : 'bucket';
      return `other:${text}`;
    };
    return Object.values(resourcesOf('AWS::IAM::Policy'))
      .filter((p) => p.Properties.Roles.some((r: { Ref: string }) => r.Ref === roleId))
      .flatMap((p) => p.Properties.PolicyDocument.Statement)
      .flatMap((st: { Action: string | string[]; Resource: unknown; Condition?: unknown }) =>
        [st.Action]
          .flat()
          .flatMap((action) =>
            action.startsWith('logs:')
              ? []
              : [st.Resource].flat().map((r) => `${action} ${label(r, st.Condition)}`),
          ),
      )
      .sort();
  }

  /** What a manifest's needs should grant, in grantsOf's lines. */
  function expectedGrants(needs: Needs, consumerOf?: string): string[] {
    // Every function is traced (active X-Ray tracing), which writes trace data with no resource scope.
    const out: string[] = ['xray:PutTelemetryRecords *', 'xray:PutTraceSegments *'];
    // The event source mapping reads the consumer's own queue (CDK's SqsEventSource grant); a dead-letter
    // consumer's is the DLQ (`dlq:<queue>`).
    if (consumerOf)
      for (const a of [
        'ChangeMessageVisibility',
        'DeleteMessage',
        'GetQueueAttributes',
        'GetQueueUrl',
        'ReceiveMessage',
      ])
        out.push(consumerOf.startsWith('dlq:') ? `sqs:${a} ${consumerOf}` : `sqs:${a} queue:${consumerOf}`);
    const reads = [
      'dynamodb:GetItem',
      'dynamodb:BatchGetItem',
      'dynamodb:Query',
      'dynamodb:ConditionCheckItem',
    ];
    const writes = [
      'dynamodb:PutItem',
      'dynamodb:UpdateItem',
      'dynamodb:DeleteItem',
      'dynamodb:BatchWriteItem',
    ];
    if (needs.table)
      for (const a of needs.table === 'read' ? reads : [...reads, ...writes])
        out.push(`${a} table`, `${a} index:gsi1`);
    const s3 = { read: 's3:GetObject', write: 's3:PutObject', delete: 's3:DeleteObject' } as const;
    for (const kind of ['read', 'write', 'delete'] as const)
      for (const prefix of needs.objects?.[kind] ?? []) out.push(`${s3[kind]} objects:${prefix}`);
    if (needs.objects?.list?.length)
      out.push(
        `s3:ListBucket bucket:${JSON.stringify({ StringLike: { 's3:prefix': needs.objects.list.map((p) => `${p}*`) } })}`,
      );
    for (const q of needs.sendTo ?? []) out.push(`sqs:SendMessage queue:${q}`);
    if (needs.mail) out.push('ses:SendEmail mail', 'ses:SendRawEmail mail');
    if (needs.secrets) out.push('ssm:GetParameter secrets');
    if (needs.probe) {
      out.push('dynamodb:DescribeTable table', 's3:ListBucket bucket');
      for (const q of queueNames) out.push(`sqs:GetQueueAttributes queue:${q}`);
    }
    return out.sort();
  }

  it('get exactly the grants their manifest declares, each scoped, and nothing else', () => {
    const needs = functionNeeds();
    for (const { name, f } of all()) {
      const queue = name.startsWith('consumer:')
        ? (name.slice(9) as QueueName)
        : name.startsWith('dlq:')
          ? name
          : undefined;
      expect(grantsOf(logicalId(f.role)), name).toEqual(expectedGrants(needs.get(name)!, queue));
    }
    // The anonymous functions stay narrow: no mail, no secrets, no deletes outside their uploads.
    expect(
      grantsOf(logicalId(functionOf('widget').role)).every(
        (g) => g.includes(' table') || g.includes('index:') || g.startsWith('xray:'),
      ),
    ).toBe(true);
    expect(
      grantsOf(logicalId(functionOf('intake').role)).some(
        (g) => g.startsWith('ses:') || g.startsWith('ssm:'),
      ),
    ).toBe(false);
  });

  it('let the functions that delete a prefix list it (the deletion lists before it deletes)', () => {
    for (const resource of ['profile', 'projects']) {
      expect(grantsOf(logicalId(functionOf(resource).role))).toContain(
        `s3:ListBucket bucket:${JSON.stringify({ StringLike: { 's3:prefix': ['p/*'] } })}`,
      );
    }
  });

  it('let a consumer that backs off delay the retries of its own queue, and no other function', () => {
    const backingOff = queueNames.filter((q) => queueDecls[q].retryDelaysSeconds?.length);
    expect(backingOff).toContain('delivery');
    for (const q of backingOff) {
      const consumer = s.stack.consumers.functions[q];
      expect(queueDecls[q].consumer.needs.delaysRetriesOf, q).toBe(q);
      expect(grantsOf(logicalId(consumer.role))).toContain(`sqs:ChangeMessageVisibility queue:${q}`);
      const vars = s.template.toJSON().Resources[logicalId(consumer.fn)].Properties.Environment.Variables;
      expect(vars[queueUrlVariable(q)]).toEqual({ Ref: logicalId(s.stack.queues.queues[q]) });
      for (const { name, f } of all().filter((x) => x.f !== consumer))
        expect(grantsOf(logicalId(f.role)), name).not.toContain(`sqs:ChangeMessageVisibility queue:${q}`);
    }
  });

  it('never allow Scan', () => {
    expect(JSON.stringify(resourcesOf('AWS::IAM::Policy'))).not.toContain('dynamodb:Scan');
  });

  // Two-way tracker sync (issue 24).
  it('lets the hooks function send to the tracker queue only, and its consumer back off and reach the fan-out', () => {
    const hooks = s.stack.api.functions.get('hooks')!;
    expect(grantsOf(logicalId(hooks.role))).toContain('sqs:SendMessage queue:tracker');
    expect(grantsOf(logicalId(hooks.role)).filter((g) => g.startsWith('sqs:SendMessage'))).toEqual([
      'sqs:SendMessage queue:tracker',
    ]);
    const consumer = s.stack.consumers.functions.tracker;
    const grants = grantsOf(logicalId(consumer.role));
    expect(grants).toContain('sqs:SendMessage queue:fanout');
    expect(grants).toContain('sqs:ChangeMessageVisibility queue:tracker');
    expect(grants).not.toContain('sqs:SendMessage queue:delivery');
  });

  // Similar reports (docs/similar.md): the filing sends every report to its own queue, apart from the fan-out.
  it('lets the intake and v1 send to the similar queue, and its consumer read screenshots and back off, nothing else', () => {
    for (const resource of ['intake', 'v1']) {
      const fn = s.stack.api.functions.get(resource as never)!;
      expect(grantsOf(logicalId(fn.role))).toContain('sqs:SendMessage queue:similar');
    }
    const issues = s.stack.api.functions.get('issues')!;
    expect(grantsOf(logicalId(issues.role))).not.toContain('sqs:SendMessage queue:similar');
    const consumer = s.stack.consumers.functions.similar;
    const grants = grantsOf(logicalId(consumer.role));
    expect(grants).toContain('s3:GetObject objects:p/');
    expect(grants).toContain('sqs:ChangeMessageVisibility queue:similar');
    expect(grants.filter((g) => g.startsWith('sqs:SendMessage'))).toEqual([]);
    expect(grants.filter((g) => g.startsWith('s3:') && g !== 's3:GetObject objects:p/')).toEqual([]);
  });

  // Requests about a person's data (issue 35): exports run on the privacy queue, not in the request.
  it("runs a person's export on the privacy queue: the request queues it, the consumer reads files and writes the ZIP", () => {
    const api = grantsOf(logicalId(functionOf('privacy').role));
    expect(api).toContain('sqs:SendMessage queue:privacy');
    // The request reads no stored file and writes no archive any more; it signs the link to one.
    expect(api).not.toContain('s3:GetObject objects:p/');
    expect(api).not.toContain('s3:PutObject objects:x/');
    expect(api).toContain('s3:GetObject objects:x/');
    // A member who leaves starts the "former member" job from the teams function.
    expect(grantsOf(logicalId(functionOf('teams').role))).toContain('sqs:SendMessage queue:privacy');
    const consumer = s.stack.consumers.functions.privacy;
    const grants = grantsOf(logicalId(consumer.role));
    for (const g of [
      's3:GetObject objects:p/',
      's3:PutObject objects:x/',
      's3:DeleteObject objects:x/',
      'sqs:SendMessage queue:privacy',
    ])
      expect(grants).toContain(g);
    expect(grants).not.toContain('s3:DeleteObject objects:p/');
    expect(grants.filter((g) => g.startsWith('sqs:SendMessage'))).toEqual(['sqs:SendMessage queue:privacy']);
    const fn = s.template.toJSON().Resources[logicalId(consumer.fn)].Properties;
    expect([fn.Timeout, fn.MemorySize]).toEqual([120, 1024]);
  });
});

describe('billing (issue 12)', () => {
  it('deploys the Stripe webhook as a public route of its own function, beside the dashboard billing calls', () => {
    const keys = Object.values(resourcesOf('AWS::ApiGatewayV2::Route')).map((r) => r.Properties.RouteKey);
    expect(keys).toEqual(
      expect.arrayContaining([
        'POST /api/stripe/webhook',
        'POST /api/client/payment',
        'GET /api/client/payment',
        'POST /api/client/profile/business_plan',
      ]),
    );
    const webhook = routes.find((r) => r.path === '/api/stripe/webhook')!;
    expect(webhook).toMatchObject({ resource: 'stripe', session: false, caller: 'public' });
    // The webhook function reads the secrets (webhook secret), writes the table and mails receipts.
    expect(functionNeeds().get('api:stripe')).toEqual({ table: 'readwrite', mail: true, secrets: true });
    expect(functionOf('stripe')).toBeDefined();
  });

  it('runs each declared schedule from an EventBridge rule with its expression: the reminder and digest daily, the notification flush every minute', () => {
    const rules = Object.values(resourcesOf('AWS::Events::Rule'));
    expect(Object.keys(scheduleDecls)).toContain('reminders');
    for (const [name, decl] of Object.entries(scheduleDecls)) {
      const fn = s.stack.schedules.functions.get(name)!;
      const rule = rules.find((r) => r.Properties.ScheduleExpression === decl.expression);
      expect(rule, name).toBeDefined();
      expect(rule!.Properties.State).toBe('ENABLED');
      expect(rule!.Properties.Targets).toEqual([
        expect.objectContaining({
          Arn: { 'Fn::GetAtt': [logicalId(fn.fn), 'Arn'] },
          RetryPolicy: { MaximumEventAgeInSeconds: 3600, MaximumRetryAttempts: 2 },
        }),
      ]);
      s.template.hasResourceProperties('AWS::Lambda::Permission', {
        Action: 'lambda:InvokeFunction',
        Principal: 'events.amazonaws.com',
        FunctionName: { 'Fn::GetAtt': [logicalId(fn.fn), 'Arn'] },
      });
    }
    expect(scheduleDecls.reminders!.expression).toBe('cron(0 8 * * ? *)');
    // Issue 23: the notification outbox's flush every minute, the digest daily at 07:00 UTC (Tr-N4).
    expect(scheduleDecls.notifications!.expression).toBe('rate(1 minute)');
    expect(scheduleDecls.digest!.expression).toBe('cron(0 7 * * ? *)');
    // Issue 35: retention daily at 03:30 UTC, with its function's timeout beyond the job's 240 s of work.
    expect(scheduleDecls.retention!.expression).toBe('cron(30 3 * * ? *)');
    const retention = s.stack.schedules.functions.get('retention')!;
    const fn = s.template.toJSON().Resources[logicalId(retention.fn)];
    expect(fn.Properties.Timeout).toBe(300);
  });

  it('expires pending uploads after one day, so an upload no issue references is gone without a job (retention)', () => {
    const bucket = s.template.toJSON().Resources[logicalId(s.stack.data.uploads)];
    const rule = bucket.Properties.LifecycleConfiguration.Rules.find(
      (r: { Prefix?: string }) => r.Prefix === uploads.pendingPrefix,
    );
    expect(uploads.pendingPrefix).toBe('pending/');
    expect(rule).toMatchObject({ Status: 'Enabled', ExpirationInDays: 1 });
  });
});

describe('two-way tracker sync (issue 24)', () => {
  it('deploys the inbound hook as a public route of the hooks function, beside its settings calls', () => {
    const keys = Object.values(resourcesOf('AWS::ApiGatewayV2::Route')).map((r) => r.Properties.RouteKey);
    expect(keys).toEqual(
      expect.arrayContaining([
        'POST /api/hooks/{vendor}/{hookId}',
        'POST /api/client/integration/{vendor}/hook/{siteId}/secret',
        'POST /api/client/integration/{vendor}/hook/{siteId}/register',
      ]),
    );
    const hook = routes.find((r) => r.path === '/api/hooks/{vendor}/{hookId}')!;
    expect(hook).toMatchObject({ resource: 'hooks', session: false, caller: 'public' });
    expect(functionOf('hooks')).toBeDefined();
  });
});

describe('data', () => {
  it('is one table with pk/sk, gsi1, TTL and point-in-time recovery, deleted with a dev stack', () => {
    s.template.resourceCountIs('AWS::DynamoDB::Table', 1);
    s.template.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Delete',
      Properties: Match.objectLike({
        KeySchema: [
          { AttributeName: table.partitionKey, KeyType: 'HASH' },
          { AttributeName: table.sortKey, KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes: [
          Match.objectLike({
            IndexName: 'gsi1',
            KeySchema: [
              { AttributeName: 'gsi1pk', KeyType: 'HASH' },
              { AttributeName: 'gsi1sk', KeyType: 'RANGE' },
            ],
          }),
        ],
        TimeToLiveSpecification: { AttributeName: table.ttlAttribute, Enabled: true },
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      }),
    });
  });

  it('keeps uploads private, encrypted, TLS-only, with CORS for presigned POSTs and lifecycle rules', () => {
    const id = logicalId(s.stack.data.uploads);
    const bucket = s.template.toJSON().Resources[id];
    expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
    expect(bucket.Properties.BucketEncryption.ServerSideEncryptionConfiguration[0]).toBeDefined();
    expect(bucket.Properties.CorsConfiguration.CorsRules[0].AllowedMethods).toContain('POST');
    expect(bucket.Properties.LifecycleConfiguration.Rules).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          Prefix: uploads.pendingPrefix,
          ExpirationInDays: uploads.pendingExpiryDays,
        }),
        expect.objectContaining({
          Prefix: uploads.exportsPrefix,
          ExpirationInDays: uploads.exportsExpiryDays,
        }),
        expect.objectContaining({
          AbortIncompleteMultipartUpload: { DaysAfterInitiation: uploads.abortIncompleteMultipartDays },
        }),
      ]),
    );
    s.template.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: id },
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
  });
});

describe('async path', () => {
  for (const name of queueNames) {
    const decl = queueDecls[name];
    it(`${name} queue has a DLQ and a consumer reporting partial batch failures`, () => {
      const q = s.template.toJSON().Resources[logicalId(s.stack.queues.queues[name])];
      expect(q.Properties.VisibilityTimeout).toBe(decl.visibilityTimeoutSeconds);
      expect(q.Properties.RedrivePolicy.maxReceiveCount).toBe(decl.maxReceiveCount);
      expect(q.Properties.RedrivePolicy.deadLetterTargetArn['Fn::GetAtt'][1]).toBe('Arn');
      s.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
        EventSourceArn: { 'Fn::GetAtt': [logicalId(s.stack.queues.queues[name]), 'Arn'] },
        FunctionName: { Ref: logicalId(s.stack.consumers.functions[name].fn) },
        BatchSize: decl.batchSize,
        ScalingConfig: { MaximumConcurrency: decl.maxConcurrency },
        FunctionResponseTypes: ['ReportBatchItemFailures'],
      });
    });

    const dead = decl.deadLetter;
    if (dead)
      it(`${name} DLQ has its own consumer, and comes back after 6x that consumer's timeout`, () => {
        const dlq = s.template.toJSON().Resources[logicalId(s.stack.queues.deadLetters[name])];
        expect(dlq.Properties.VisibilityTimeout).toBe(dead.visibilityTimeoutSeconds);
        expect(dead.visibilityTimeoutSeconds).toBeGreaterThanOrEqual(6 * dead.consumer.timeoutSeconds);
        const fn = s.stack.consumers.deadLetterFunctions[name]!.fn;
        expect(s.template.toJSON().Resources[logicalId(fn)].Properties.Timeout).toBe(
          dead.consumer.timeoutSeconds,
        );
        s.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
          EventSourceArn: { 'Fn::GetAtt': [logicalId(s.stack.queues.deadLetters[name]), 'Arn'] },
          FunctionName: { Ref: logicalId(fn) },
          BatchSize: dead.batchSize,
          ScalingConfig: { MaximumConcurrency: dead.maxConcurrency },
          FunctionResponseTypes: ['ReportBatchItemFailures'],
        });
      });

    it(`${name} queue's visibility timeout is at least 6x its consumer's timeout`, () => {
      const fn = s.template.toJSON().Resources[logicalId(s.stack.consumers.functions[name].fn)];
      expect(fn.Properties.Timeout).toBe(decl.consumer.timeoutSeconds);
      expect(decl.visibilityTimeoutSeconds).toBeGreaterThanOrEqual(6 * fn.Properties.Timeout);
    });
  }
});

describe('deliveries cannot starve each other', () => {
  const mappingOf = (queue: QueueName) =>
    Object.values(resourcesOf('AWS::Lambda::EventSourceMapping')).find(
      (m) =>
        JSON.stringify(m.Properties.EventSourceArn) ===
        JSON.stringify({ 'Fn::GetAtt': [logicalId(s.stack.queues.queues[queue]), 'Arn'] }),
    )?.Properties;

  it('hands the delivery consumer one record per invocation, at most 10 at once', () => {
    // One slow vendor's record holds up no other record, and each gets the whole time budget.
    expect(mappingOf('delivery')).toMatchObject({ BatchSize: 1, ScalingConfig: { MaximumConcurrency: 10 } });
    // No batching window: a record waits for nobody.
    expect(mappingOf('delivery')?.MaximumBatchingWindowInSeconds).toBeUndefined();
  });

  it('leaves the delivery DLQ to a consumer of its own, not to the delivery consumer', () => {
    const dlqArn = { 'Fn::GetAtt': [logicalId(s.stack.queues.deadLetters.delivery), 'Arn'] };
    const onDlq = Object.values(resourcesOf('AWS::Lambda::EventSourceMapping')).filter(
      (m) => JSON.stringify(m.Properties.EventSourceArn) === JSON.stringify(dlqArn),
    );
    expect(onDlq).toHaveLength(1);
    expect(onDlq[0]?.Properties.FunctionName).toEqual({
      Ref: logicalId(s.stack.consumers.deadLetterFunctions.delivery!.fn),
    });
  });
});

describe('web tier', () => {
  const behaviours = () =>
    Object.values(s.template.findResources('AWS::CloudFront::Distribution'))[0]!.Properties
      .DistributionConfig;

  it('sends /api/* to the API uncached, with cookies, query strings, its headers and the visitor address, never Host', () => {
    const api = behaviours().CacheBehaviors.find((b: { PathPattern: string }) => b.PathPattern === '/api/*');
    expect(api).toMatchObject({
      CachePolicyId: CachePolicy.CACHING_DISABLED.cachePolicyId,
      ViewerProtocolPolicy: 'redirect-to-https',
    });
    expect(api.AllowedMethods).toEqual(expect.arrayContaining(['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']));
    const policies = resourcesOf('AWS::CloudFront::OriginRequestPolicy');
    const policy = policies[api.OriginRequestPolicyId.Ref]!.Properties.OriginRequestPolicyConfig;
    expect(policy.HeadersConfig.HeaderBehavior).toBe('whitelist');
    const headers = (policy.HeadersConfig.Headers as string[]).map((h) => h.toLowerCase());
    expect(headers).toEqual(
      expect.arrayContaining(['cloudfront-viewer-address', 'origin', 'content-type', 'referer']),
    );
    expect(headers).not.toContain('host');
    expect(policy.CookiesConfig.CookieBehavior).toBe('all');
    expect(policy.QueryStringsConfig.QueryStringBehavior).toBe('all');
  });

  it('serves the reporter status page /r/* from the API uncached, rewritten by a viewer-request function (issue 24)', () => {
    const list = behaviours().CacheBehaviors as Record<string, unknown>[];
    const page = list.find((b) => b.PathPattern === '/r/*') as Record<string, unknown> & {
      FunctionAssociations: { EventType: string; FunctionARN: { 'Fn::GetAtt': string[] } }[];
      OriginRequestPolicyId: unknown;
    };
    const api = list.find((b) => b.PathPattern === '/api/*')!;
    expect(page).toMatchObject({
      CachePolicyId: CachePolicy.CACHING_DISABLED.cachePolicyId,
      ViewerProtocolPolicy: 'redirect-to-https',
      AllowedMethods: ['GET', 'HEAD'],
      TargetOriginId: api.TargetOriginId,
    });
    expect(page.OriginRequestPolicyId).toEqual(api.OriginRequestPolicyId);
    expect(page.FunctionAssociations).toHaveLength(1);
    expect(page.FunctionAssociations[0]!.EventType).toBe('viewer-request');
    const fn =
      resourcesOf('AWS::CloudFront::Function')[page.FunctionAssociations[0]!.FunctionARN['Fn::GetAtt'][0]!]!;
    expect(fn.Properties.FunctionCode).toBe(reporterPageCode);
  });

  it('adds a generated secret to every API request, which every API function checks', () => {
    const secrets = resourcesOf('AWS::SecretsManager::Secret');
    const [secretId, secret] = Object.entries(secrets)[0]!;
    expect(Object.keys(secrets)).toHaveLength(1);
    expect(secret.Properties.GenerateSecretString.PasswordLength).toBeGreaterThanOrEqual(32);
    const reference = JSON.stringify({
      'Fn::Join': ['', ['{{resolve:secretsmanager:', { Ref: secretId }, ':SecretString:::}}']],
    });
    const origins = behaviours().Origins as {
      DomainName: unknown;
      CustomOriginConfig?: unknown;
      OriginCustomHeaders?: { HeaderName: string; HeaderValue: unknown }[];
    }[];
    const apiOrigin = origins.find((o) => JSON.stringify(o.DomainName).includes('execute-api'))!;
    expect(apiOrigin.OriginCustomHeaders).toEqual([
      { HeaderName: EDGE_SECRET_HEADER, HeaderValue: JSON.parse(reference) },
    ]);
    // Only the API origin gets it: the S3 origins must not learn the secret.
    for (const o of origins.filter((o) => o !== apiOrigin)) expect(o.OriginCustomHeaders).toBeUndefined();
    for (const f of s.stack.api.functions.values()) {
      const env = s.template.toJSON().Resources[logicalId(f.fn)].Properties.Environment.Variables;
      expect(JSON.stringify(env.EDGE_SECRET)).toBe(reference);
    }
    for (const f of Object.values(s.stack.consumers.functions)) {
      const env = s.template.toJSON().Resources[logicalId(f.fn)].Properties.Environment.Variables;
      expect(env.EDGE_SECRET).toBeUndefined();
    }
  });

  it('caches the loader 60 s per project, before /api/*, forwarding nothing of the viewer', () => {
    const list = behaviours().CacheBehaviors as { PathPattern: string }[];
    const index = list.findIndex((b) => b.PathPattern === loaderPath);
    expect(index).toBeGreaterThanOrEqual(0);
    // CloudFront takes the first match; /api/* would otherwise swallow the loader.
    expect(index).toBeLessThan(list.findIndex((b) => b.PathPattern === '/api/*'));
    const loader = list[index] as unknown as Record<string, unknown> & { CachePolicyId: { Ref: string } };
    expect(loader.AllowedMethods).toEqual(['GET', 'HEAD']);
    expect(loader.OriginRequestPolicyId).toBeUndefined();
    const policy = resourcesOf('AWS::CloudFront::CachePolicy')[loader.CachePolicyId.Ref]!.Properties
      .CachePolicyConfig;
    expect(policy).toMatchObject({ DefaultTTL: 60, MaxTTL: 60, MinTTL: 0 });
    const keys = policy.ParametersInCacheKeyAndForwardedToOrigin;
    expect(keys.HeadersConfig.HeaderBehavior).toBe('none');
    expect(keys.CookiesConfig.CookieBehavior).toBe('none');
    expect(keys.QueryStringsConfig.QueryStringBehavior).toBe('none');
    // The pattern covers exactly the loader route of the route table.
    const loaderRoutes = deployedRoutes().filter((r) => r.resource === 'widget');
    expect(loaderRoutes.map((r) => r.path)).toEqual([loaderPath.replace('*', '{id}')]);
  });

  it('compresses the dashboard, /widget/* and the loader at the edge (Gzip and Brotli), as the local stack does', () => {
    const config = behaviours();
    const byPath = (path: string) =>
      (config.CacheBehaviors as { PathPattern: string; Compress: boolean; CachePolicyId: unknown }[]).find(
        (b) => b.PathPattern === path,
      )!;
    // CloudFront compresses only with Compress on and a cache policy that caches both encodings.
    for (const b of [config.DefaultCacheBehavior, byPath('/widget/*')]) {
      expect(b.Compress).toBe(true);
      expect(b.CachePolicyId).toBe(CachePolicy.CACHING_OPTIMIZED.cachePolicyId); // Gzip and Brotli on
    }
    const loader = byPath(loaderPath) as { Compress: boolean; CachePolicyId: { Ref: string } };
    expect(loader.Compress).toBe(true);
    const policy = resourcesOf('AWS::CloudFront::CachePolicy')[loader.CachePolicyId.Ref]!.Properties
      .CachePolicyConfig.ParametersInCacheKeyAndForwardedToOrigin;
    expect(policy).toMatchObject({ EnableAcceptEncodingGzip: true, EnableAcceptEncodingBrotli: true });
    // The rest of the API is not cached, and the local gateway compresses the loader's route only.
    expect(byPath('/api/*').CachePolicyId).toBe(CachePolicy.CACHING_DISABLED.cachePolicyId);
    expect(compressedApiPaths).toEqual([loaderPath.replace('*', '{id}')]);
  });

  it('sends the dashboard a strict Content-Security-Policy and security headers', () => {
    const id = behaviours().DefaultCacheBehavior.ResponseHeadersPolicyId.Ref;
    const config = resourcesOf('AWS::CloudFront::ResponseHeadersPolicy')[id]!.Properties
      .ResponseHeadersPolicyConfig;
    const headers = config.SecurityHeadersConfig;
    const csp = JSON.stringify(headers.ContentSecurityPolicy.ContentSecurityPolicy);
    expect(csp).toContain("script-src 'self';");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    // Downloads redirect to the uploads bucket: its regional domain, and no other S3 host.
    expect(csp).toContain(logicalId(s.stack.data.uploads));
    expect(csp).not.toContain('accounts.google.com'); // Google sign-in is not configured in this synth.
    // Page snapshots are frames of the uploads bucket's origin (issue 19), and nothing else may be framed:
    // the policy with the bucket's domain token written as <uploads>.
    const bucket = logicalId(s.stack.data.uploads);
    const policy = headers.ContentSecurityPolicy.ContentSecurityPolicy as
      | string
      | { 'Fn::Join': [string, (string | { 'Fn::GetAtt': [string, string] })[]] };
    const text =
      typeof policy === 'string'
        ? policy
        : policy['Fn::Join'][1]
            .map((part) =>
              typeof part === 'string'
                ? part
                : part['Fn::GetAtt'][0] === bucket && part['Fn::GetAtt'][1] === 'RegionalDomainName'
                  ? '<uploads>'
                  : '<other>',
            )
            .join(policy['Fn::Join'][0]);
    expect(/(?:^|; )frame-src ([^;]*)/.exec(text)?.[1]).toBe('https://<uploads>');
    expect(text).not.toContain('<other>');
    expect(headers.FrameOptions.FrameOption).toBe('DENY');
    expect(headers.StrictTransportSecurity.AccessControlMaxAgeSec).toBeGreaterThanOrEqual(31536000);
    expect(headers.ContentTypeOptions).toBeDefined();
  });

  it('gives every route a throttle of its own, sized by who calls it', () => {
    const stage = Object.values(resourcesOf('AWS::ApiGatewayV2::Stage'))[0]!.Properties;
    const settings = stage.RouteSettings as Record<
      string,
      { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }
    >;
    expect(Object.keys(settings).sort()).toEqual(deployedRoutes().map(routeKey).sort());
    for (const route of deployedRoutes()) {
      const t = routeThrottles[throttleClassOf(route)];
      expect(settings[routeKey(route)]).toEqual({
        ThrottlingRateLimit: t.rate,
        ThrottlingBurstLimit: t.burst,
      });
    }
    // Public routes cannot take the dashboard's share: each has its own bucket, none larger than the loader's.
    expect(settings['POST /api/website/{id}/request']!.ThrottlingRateLimit).toBe(routeThrottles.intake.rate);
    expect(settings['POST /api/client/login']!.ThrottlingRateLimit).toBe(routeThrottles.account.rate);
    expect(settings['GET /api/client/website']!.ThrottlingRateLimit).toBe(routeThrottles.dashboard.rate);
  });

  it('has no web ACL in dev (WAF is a prod default), and says so to cdk-nag', () => {
    expect(behaviours().WebACLId).toBeUndefined();
    expect(s.edge).toBeUndefined();
    expect(acknowledgements(s.stack.web.distribution).map((a) => a.id)).toContain('AwsSolutions-CFR2');
  });

  it('serves /widget/* cached and the dashboard with the SPA rewrite, without error-page rewrites', () => {
    const config = behaviours();
    const widget = config.CacheBehaviors.find((b: { PathPattern: string }) => b.PathPattern === '/widget/*');
    expect(widget.CachePolicyId).toBe(CachePolicy.CACHING_OPTIMIZED.cachePolicyId);
    expect(config.DefaultCacheBehavior.FunctionAssociations[0].EventType).toBe('viewer-request');
    expect(config.CustomErrorResponses).toBeUndefined();
    expect(config.Logging).toBeDefined();
    s.template.resourceCountIs('Custom::CDKBucketDeployment', 3);
  });

  it('rewrites client routes, and nothing else, to /index.html', () => {
    const rewrite = (uri: string) =>
      runInNewContext(`${spaFallbackCode}; handler({ request: { uri: ${JSON.stringify(uri)} } }).uri`);
    expect(rewrite('/')).toBe('/index.html');
    expect(rewrite('/projects/12/issues')).toBe('/index.html');
    // The public API reference (issue 25): a dashboard page, though its address ends in "api".
    expect(rewrite('/docs/api')).toBe('/index.html');
    // A replay link's page: its token holds dots, yet it is the dashboard's page, not an asset.
    expect(
      rewrite(`/replay/${'0f8fad5b-d9cb-469f-a165-70867728950e.'.repeat(2)}1767225600.${'A'.repeat(43)}`),
    ).toBe('/index.html');
    expect(rewrite('/assets/index-abc.js')).toBe('/assets/index-abc.js');
    expect(rewrite('/favicon.svg')).toBe('/favicon.svg');
    expect(rewrite('/api/nothing')).toBe('/api/nothing');
    expect(rewrite('/widget/app')).toBe('/widget/app');
  });

  it('rewrites /r/{token} as the local server does (contracts/reporter.ts reporterPagePath)', () => {
    const rewrite = (uri: string) =>
      runInNewContext(`${reporterPageCode}; handler({ request: { uri: ${JSON.stringify(uri)} } }).uri`);
    for (const uri of ['/r/AbCdEfGhIjKlMnOpQrStUv', '/r/x-y_z/', '/r/a/b', '/r/']) {
      expect(rewrite(uri), uri).toBe(reporterPagePath(uri) ?? uri);
    }
    expect(rewrite('/r/AbCdEfGhIjKlMnOpQrStUv')).toBe('/api/reporter/AbCdEfGhIjKlMnOpQrStUv/page');
  });
});

describe('mail', () => {
  it('verifies the mail domain in SES and sends from it', () => {
    s.template.hasResourceProperties('AWS::SES::EmailIdentity', { EmailIdentity: 'snag.example.com' });
    expect(s.stack.mail.from).toBe('Snag <no-reply@snag.example.com>');
  });
});

describe('cdk-nag AwsSolutions and CloudFormation validation', () => {
  it('ran during synth and left nothing unacknowledged, errors or warnings', () => {
    expect(nagRuns).toBe(1);
    expect(s.violations).toEqual([]);
  });

  it('acknowledges only real findings, each with a reason', () => {
    // Re-run the pack ignoring every acknowledgement: each one must match a finding it silences.
    const spy = vi
      .spyOn(NagPack.prototype as unknown as { isAcknowledged(): boolean }, 'isAcknowledged')
      .mockReturnValue(false);
    const raw = new AwsSolutionsChecks().validateScope(s.app);
    spy.mockRestore();
    const acks = acknowledgements(s.app);
    expect(acks.length).toBeGreaterThan(0);
    for (const ack of acks) {
      expect(ack.reason.length, `${ack.id} at ${ack.path}`).toBeGreaterThan(30);
      const hit = raw.violations.some(
        (v) =>
          v.ruleName === ack.id &&
          v.violatingResources.some((r) =>
            (r as { constructPath?: string }).constructPath?.startsWith(`${ack.path}/`),
          ),
      );
      expect(hit, `stale acknowledgement ${ack.id} at ${ack.path}`).toBe(true);
    }
  });
});
