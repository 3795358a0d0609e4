/**
 * The whole Snag deployment of one stage in one stack. The stateful parts (Data) keep RETAIN outside dev
 * and prod has termination protection, so the single stack does not put data at risk, and there are no
 * cross-stack exports to untangle when resources move.
 */
import { Stack, type StackProps, Validations } from 'aws-cdk-lib';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { type Needs, queueNames, queueUrlVariable, variablesFor } from '#contracts/manifest';
import { apiFunctions, queueDecls, scheduleDecls } from '../../functions/manifests';
import type { Settings } from '../settings';
import { Api } from './api';
import { Consumers, Queues } from './async';
import { Data } from './data';
import { grantNeeds } from './grants';
import type { SnagFunction } from './lambda';
import { Mail } from './mail';
import { Monitoring } from './monitoring';
import { Schedules } from './schedules';
import { Web } from './web';

export class SnagStack extends Stack {
  readonly data: Data;
  readonly queues: Queues;
  readonly api: Api;
  readonly consumers: Consumers;
  readonly schedules: Schedules;
  readonly web: Web;
  readonly mail: Mail;
  readonly monitoring: Monitoring;

  constructor(scope: Construct, id: string, settings: Settings, props?: StackProps) {
    super(scope, id, { ...props, terminationProtection: settings.stage === 'prod' });
    this.data = new Data(this, 'Data', settings);
    this.queues = new Queues(this, 'Queues', settings);
    this.mail = new Mail(this, 'Mail', settings.mailDomain);

    // functions/runtime/config.ts parses these. Every function gets the first group; of the second, only
    // what its manifest declares (functions/contracts/manifest.ts variablesFor). APP_ORIGIN is added below,
    // once the distribution exists.
    const everyFunction: Record<string, string> = {
      SNAG_STAGE: settings.stage,
      LOG_LEVEL: settings.logLevel,
      ...(settings.marketingUrl ? { MARKETING_URL: settings.marketingUrl } : {}),
      OPERATOR_EMAIL: settings.operatorEmail,
      ...settings.seller,
      ...(settings.googleClientId ? { GOOGLE_CLIENT_ID: settings.googleClientId } : {}),
      ...(settings.slackClientId ? { SLACK_CLIENT_ID: settings.slackClientId } : {}),
      ...(settings.asanaClientId ? { ASANA_CLIENT_ID: settings.asanaClientId } : {}),
    };
    const declarable: Record<string, string> = {
      TABLE_NAME: this.data.table.tableName,
      UPLOADS_BUCKET: this.data.uploads.bucketName,
      MAIL_FROM: this.mail.from,
      SECRETS_PARAMETER: settings.secretsParameter,
      ...Object.fromEntries(queueNames.map((q) => [queueUrlVariable(q), this.queues.queues[q].queueUrl])),
    };
    const environmentFor = (needs: Needs) => ({
      ...everyFunction,
      ...Object.fromEntries(
        variablesFor(needs).flatMap((name) => (name in declarable ? [[name, declarable[name]!]] : [])),
      ),
    });

    // CloudFront adds this secret to every API request; the API refuses requests without it, so it cannot
    // be reached around CloudFront (docs/decisions.md "Edge secret"). Both read it by dynamic reference.
    const generation = settings.edgeSecretGeneration;
    const edgeSecret = new Secret(this, generation === 1 ? 'EdgeSecret' : `EdgeSecret${generation}`, {
      description: `Snag ${settings.stage}: origin header CloudFront adds to API requests`,
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
      removalPolicy: settings.removalPolicy,
    });
    Validations.of(edgeSecret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'The edge secret is resolved into the CloudFront origin header and the API functions at deploy time; ' +
        'it is rotated by replacing it (context edgeSecretGeneration), which updates both in one deploy.',
    });
    const edgeSecretValue = edgeSecret.secretValue.unsafeUnwrap();

    this.api = new Api(this, 'Api', {
      settings,
      environmentOf: (resource) => ({
        ...environmentFor(apiFunctions[resource].needs),
        EDGE_SECRET: edgeSecretValue,
      }),
    });
    this.consumers = new Consumers(this, 'Consumers', {
      settings,
      queues: this.queues,
      environmentOf: environmentFor,
    });
    this.schedules = new Schedules(this, 'Schedules', {
      settings,
      environmentOf: (name) => environmentFor(scheduleDecls[name]!.needs),
    });
    this.web = new Web(this, 'Web', {
      settings,
      api: this.api.httpApi,
      logs: this.data.logs,
      uploads: this.data.uploads,
      edgeSecret: edgeSecretValue,
    });

    // APP_ORIGIN: the custom domain when configured, otherwise the distribution's own domain. The latter
    // is known only after deploy, but referencing it is no cycle: the distribution depends on the API
    // resource alone, never on the functions or routes, so CloudFormation creates the API, then the
    // distribution, then the functions.
    const all: SnagFunction[] = [
      ...this.api.functions.values(),
      ...Object.values(this.consumers.functions),
      ...Object.values(this.consumers.deadLetterFunctions),
      ...this.schedules.functions.values(),
    ];
    for (const f of all) f.fn.addEnvironment('APP_ORIGIN', this.web.origin);

    // Alarms on every function and every dead-letter queue, named as the manifests name them.
    this.monitoring = new Monitoring(this, 'Monitoring', {
      settings,
      functions: new Map([
        ...[...this.api.functions].map(([r, f]) => [`api:${r}`, f.fn] as const),
        ...queueNames.map((q) => [`consumer:${q}`, this.consumers.functions[q].fn] as const),
        ...Object.entries(this.consumers.deadLetterFunctions).map(([q, f]) => [`dlq:${q}`, f.fn] as const),
        ...[...this.schedules.functions].map(([n, f]) => [`schedule:${n}`, f.fn] as const),
      ]),
      deadLetters: this.queues.deadLetters,
      queues: this.queues.queues,
      httpApi: this.api.httpApi,
      mail: this.mail,
    });

    // Each function gets exactly what its manifest declares (test/cdk asserts no more and no less).
    const targets = {
      table: this.data.table,
      bucket: this.data.uploads,
      queues: this.queues.queues,
      mail: this.mail,
      secretsParameter: settings.secretsParameter,
    };
    for (const [resource, f] of this.api.functions)
      grantNeeds(this, f.role, apiFunctions[resource].needs, targets);
    for (const queue of queueNames) {
      grantNeeds(this, this.consumers.functions[queue].role, queueDecls[queue].consumer.needs, targets);
      const dead = this.consumers.deadLetterFunctions[queue];
      const deadNeeds = queueDecls[queue].deadLetter?.consumer.needs;
      if (dead && deadNeeds) grantNeeds(this, dead.role, deadNeeds, targets);
    }
    for (const [name, f] of this.schedules.functions)
      grantNeeds(this, f.role, scheduleDecls[name]!.needs, targets);
  }
}
