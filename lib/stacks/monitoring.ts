/**
 * Alarms and the dashboard (issue 10, docs/operations.md "Alarms"). Every alarm notifies one SNS topic,
 * which mails `alarmEmail` when the context gives one. The alarm sets are derived from what the stack
 * has: one DLQ alarm per declared queue, errors and throttles per function; test/cdk/monitoring.test.ts
 * derives the same sets from the manifests and fails on a missing one.
 */
import { Aws, Duration, Stack } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { CfnAnomalyMonitor, CfnAnomalySubscription } from 'aws-cdk-lib/aws-ce';
import {
  Alarm,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  type IMetric,
  MathExpression,
  Metric,
  TextWidget,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { QueueName } from '#contracts/manifest';
import { integrationNames } from '#contracts/messages';
import { businessMetrics, metricsNamespace, metricsService } from '#contracts/metrics';
import type { Settings } from '../settings';
import { type Mail, mailDimension } from './mail';

/** Thresholds, in one place so docs/operations.md can quote them. */
export const thresholds = {
  /** Percent of API answers that are 5xx, over 5 minutes, with at least `apiMinRequests` answers. */
  api5xxPercent: 5,
  apiMinRequests: 20,
  /** API p95 latency in milliseconds (the API Gateway `Latency` metric, which includes the function). */
  apiP95Ms: 2000,
  /** Percent of sent mail that bounced or complained, over an hour, with at least `mailMinSent` sends. */
  bouncePercent: 4,
  complaintPercent: 0.1,
  mailMinSent: 20,
  /** SES account reputation: AWS reviews an account at 5 % bounces and 0.1 % complaints. */
  reputationBounceRate: 0.04,
  reputationComplaintRate: 0.001,
  /** A cost anomaly of at least this many US dollars of total impact. */
  costAnomalyUsd: 10,
} as const;

export interface MonitoringProps {
  settings: Settings;
  /** Every function, named as functions/manifests.ts `functionNeeds` names it (`api:intake`, `consumer:fanout`). */
  functions: Map<string, IFunction>;
  deadLetters: Record<QueueName, IQueue>;
  queues: Record<QueueName, IQueue>;
  httpApi: HttpApi;
  mail: Mail;
}

const fiveMinutes = Duration.minutes(5);
const oneHour = Duration.hours(1);

export class Monitoring extends Construct {
  readonly topic: Topic;
  readonly dashboard: Dashboard;
  /** Alarms by the name docs/operations.md uses for their kind: `dlq:fanout`, `errors:api:intake`, `api:5xx`. */
  readonly alarms = new Map<string, Alarm>();
  private readonly prefix: string;
  private readonly stage: string;

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);
    const { settings } = props;
    this.prefix = Stack.of(this).stackName;
    this.stage = settings.stage;

    // CloudWatch (and Cost Anomaly Detection) can publish to an encrypted topic only with a customer
    // managed key whose policy lets them use it; the AWS managed SNS key cannot be shared.
    const key = new Key(this, 'TopicKey', {
      description: `${this.prefix}: encrypts the alarm topic`,
      enableKeyRotation: true,
      removalPolicy: settings.removalPolicy,
    });
    this.topic = new Topic(this, 'AlarmTopic', {
      displayName: `${this.prefix} alarms`,
      masterKey: key,
      enforceSSL: true,
    });
    const publishers = [new ServicePrincipal('cloudwatch.amazonaws.com')];
    if (settings.costAnomalyMonitor) publishers.push(new ServicePrincipal('costalerts.amazonaws.com'));
    for (const principal of publishers) {
      key.grant(principal, 'kms:Decrypt', 'kms:GenerateDataKey*');
      this.topic.addToResourcePolicy(
        new PolicyStatement({
          actions: ['sns:Publish'],
          principals: [principal],
          resources: [this.topic.topicArn],
          // Only on behalf of this account: the services publish for any account that names the topic.
          conditions: { StringEquals: { 'aws:SourceAccount': Aws.ACCOUNT_ID } },
        }),
      );
    }
    if (settings.alarmEmail) this.topic.addSubscription(new EmailSubscription(settings.alarmEmail));

    const dlqs = this.queueAlarms(props);
    const fns = this.functionAlarms(props.functions);
    const api = this.apiAlarms(props.httpApi);
    const mail = this.mailAlarms(props.mail);
    if (settings.costAnomalyMonitor) this.costAnomalies(settings.costAnomalyMonitor);

    this.dashboard = new Dashboard(this, 'Dashboard', {
      dashboardName: `${this.prefix}-${Aws.REGION}`,
      defaultInterval: Duration.days(1),
    });
    this.dashboard.addWidgets(
      new TextWidget({
        markdown: `# ${this.prefix}\nAlarms and what to do: docs/operations.md "Alarms". Logs: CloudWatch Logs Insights on the functions' log groups, filter by \`correlationId\`.`,
        width: 24,
        height: 2,
      }),
    );
    this.dashboard.addWidgets(
      graph('API requests and errors', [api.requests, api.clientErrors, api.serverErrors]),
      graph('API latency (ms)', [api.p50, api.p95]),
      graph('API 5xx (%)', [api.rate]),
    );
    this.dashboard.addWidgets(
      // Held: stored past the project's daily threshold and not sent to the integrations (a flood, issue 19).
      graph('Reports filed, held, and recordings refused', [
        this.business('reportFiled'),
        this.business('reportHeld'),
        this.business('replayRefused'),
      ]),
      graph(
        'Deliveries passed',
        integrationNames.map((i) => this.business('deliveryPassed', i)),
      ),
      graph(
        'Deliveries failed',
        integrationNames.map((i) => this.business('deliveryFailed', i)),
      ),
      graph('Checkouts completed', [this.business('checkoutCompleted')]),
    );
    // Resolved issues deleted by retention (docs/retention.md): a jump follows a shortened period.
    this.dashboard.addWidgets(graph('Issues deleted by retention', [this.business('issuesExpired')]));
    this.dashboard.addWidgets(
      graph('Dead-letter queues (messages)', dlqs),
      graph(
        'Queues: oldest message (s)',
        Object.entries(props.queues).map(([name, q]) =>
          q.metricApproximateAgeOfOldestMessage({ label: name, statistic: 'Maximum', period: fiveMinutes }),
        ),
      ),
    );
    this.dashboard.addWidgets(
      graph('Function errors', fns.errors),
      graph('Function throttles', fns.throttles),
      graph('Function duration p95 (ms)', fns.durations),
    );
    this.dashboard.addWidgets(
      graph('Mail: sent, delivered, bounced, complained', mail.counts),
      graph('Mail: bounce and complaint rate (%)', mail.rates),
      graph('SES account reputation', mail.reputation),
    );
  }

  /** Alarms into the topic; `kind` is the docs' name for it. */
  private alarm(kind: string, title: string, metric: IMetric, opts: AlarmOptions): Alarm {
    const alarm = new Alarm(this, `Alarm-${kind.replaceAll(':', '-')}`, {
      alarmName: `${this.prefix} ${title}`,
      alarmDescription: `${opts.meaning} What to do: docs/operations.md, Alarms, "${opts.section}".`,
      metric,
      threshold: opts.threshold,
      comparisonOperator: opts.comparison ?? ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: opts.periods ?? 1,
      datapointsToAlarm: opts.datapoints ?? opts.periods ?? 1,
      // No data means nothing happened (no messages, no requests, no mail): that is not an incident.
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    const action = new SnsAction(this.topic);
    alarm.addAlarmAction(action);
    alarm.addOkAction(action);
    this.alarms.set(kind, alarm);
    return alarm;
  }

  private queueAlarms(props: MonitoringProps): IMetric[] {
    return Object.entries(props.deadLetters).map(([name, dlq]) => {
      const depth = dlq.metricApproximateNumberOfMessagesVisible({
        label: name,
        statistic: 'Maximum',
        period: fiveMinutes,
      });
      this.alarm(`dlq:${name}`, `${name} dead-letter queue not empty`, depth, {
        threshold: 0,
        meaning: `Messages of the ${name} queue failed every retry and wait in its dead-letter queue.`,
        section: 'Dead-letter queue not empty',
      });
      return depth;
    });
  }

  private functionAlarms(functions: Map<string, IFunction>) {
    const errors: IMetric[] = [];
    const throttles: IMetric[] = [];
    const durations: IMetric[] = [];
    for (const [name, fn] of functions) {
      const e = fn.metricErrors({ label: name, statistic: 'Sum', period: fiveMinutes });
      const t = fn.metricThrottles({ label: name, statistic: 'Sum', period: fiveMinutes });
      this.alarm(`errors:${name}`, `${name} function errors`, e, {
        threshold: 0,
        meaning: `The ${name} function failed whole invocations (a crash, a timeout or running out of memory), not answered errors.`,
        section: 'Function errors',
      });
      this.alarm(`throttles:${name}`, `${name} function throttled`, t, {
        threshold: 0,
        meaning: `Lambda refused to run the ${name} function: the account's or the function's concurrency is used up.`,
        section: 'Function throttled',
      });
      errors.push(e);
      throttles.push(t);
      durations.push(fn.metricDuration({ label: name, statistic: 'p95', period: fiveMinutes }));
    }
    return { errors, throttles, durations };
  }

  private apiAlarms(httpApi: HttpApi) {
    const requests = httpApi.metricCount({ label: 'requests', statistic: 'Sum', period: fiveMinutes });
    const serverErrors = httpApi.metricServerError({ label: '5xx', statistic: 'Sum', period: fiveMinutes });
    const clientErrors = httpApi.metricClientError({ label: '4xx', statistic: 'Sum', period: fiveMinutes });
    // A handful of requests with one failure is not a rate worth waking anyone for.
    const rate = new MathExpression({
      expression: `IF(requests >= ${thresholds.apiMinRequests}, 100 * errors / requests, 0)`,
      usingMetrics: { requests, errors: serverErrors },
      label: '5xx %',
      period: fiveMinutes,
    });
    this.alarm('api:5xx', 'API 5xx rate', rate, {
      threshold: thresholds.api5xxPercent,
      periods: 3,
      datapoints: 2,
      meaning: `More than ${thresholds.api5xxPercent} % of API answers were 5xx in two of the last three 5-minute periods.`,
      section: 'API 5xx rate',
    });
    const p95 = httpApi.metricLatency({ label: 'p95', statistic: 'p95', period: fiveMinutes });
    const p50 = httpApi.metricLatency({ label: 'p50', statistic: 'p50', period: fiveMinutes });
    this.alarm('api:latency', 'API p95 latency', p95, {
      threshold: thresholds.apiP95Ms,
      periods: 3,
      meaning: `The API's p95 latency stayed above ${thresholds.apiP95Ms} ms for 15 minutes.`,
      section: 'API p95 latency',
    });
    return { requests, serverErrors, clientErrors, rate, p50, p95 };
  }

  private mailAlarms(mail: Mail) {
    const ses = (name: string) =>
      new Metric({
        namespace: 'AWS/SES',
        metricName: name,
        dimensionsMap: { [mailDimension]: mail.configurationSet.configurationSetName },
        statistic: 'Sum',
        period: oneHour,
        label: name,
      });
    const sent = ses('Send');
    const counts = [sent, ses('Delivery'), ses('Bounce'), ses('Complaint'), ses('Reject')];
    // Ids are per event: the dashboard graphs both expressions together, and ids must not clash there.
    const rateOf = (event: 'Bounce' | 'Complaint') =>
      new MathExpression({
        expression: `IF(sent >= ${thresholds.mailMinSent}, 100 * ${event.toLowerCase()} / sent, 0)`,
        usingMetrics: { sent, [event.toLowerCase()]: ses(event) },
        label: `${event} %`,
        period: oneHour,
      });
    const bounce = rateOf('Bounce');
    const complaint = rateOf('Complaint');
    this.alarm('mail:bounces', 'mail bounce rate', bounce, {
      threshold: thresholds.bouncePercent,
      meaning: `More than ${thresholds.bouncePercent} % of the mail sent in the last hour bounced.`,
      section: 'Mail bounce or complaint rate',
    });
    this.alarm('mail:complaints', 'mail complaint rate', complaint, {
      threshold: thresholds.complaintPercent,
      meaning: `More than ${thresholds.complaintPercent} % of the mail sent in the last hour was reported as spam.`,
      section: 'Mail bounce or complaint rate',
    });
    // SES's own account-wide figures, the ones it reviews and suspends sending by.
    const reputation = (name: string) =>
      new Metric({
        namespace: 'AWS/SES',
        metricName: name,
        statistic: 'Maximum',
        period: oneHour,
        label: name,
      });
    const repBounce = reputation('Reputation.BounceRate');
    const repComplaint = reputation('Reputation.ComplaintRate');
    this.alarm('mail:reputation-bounces', 'SES reputation bounce rate', repBounce, {
      threshold: thresholds.reputationBounceRate,
      comparison: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      meaning: `SES's bounce rate for the whole account reached ${thresholds.reputationBounceRate * 100} %; at 5 % AWS reviews the account, at 10 % it may stop its sending.`,
      section: 'SES account reputation',
    });
    this.alarm('mail:reputation-complaints', 'SES reputation complaint rate', repComplaint, {
      threshold: thresholds.reputationComplaintRate,
      comparison: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      meaning: `SES's complaint rate for the whole account reached ${thresholds.reputationComplaintRate * 100} %; at 0.1 % AWS reviews the account, at 0.5 % it may stop its sending.`,
      section: 'SES account reputation',
    });
    return {
      counts,
      rates: [bounce, complaint],
      reputation: [repBounce, repComplaint],
    };
  }

  /** Cost Anomaly Detection has no CloudWatch metric: its subscription publishes to the topic itself. */
  private costAnomalies(monitor: string) {
    const monitorArn =
      monitor === 'create'
        ? new CfnAnomalyMonitor(this, 'CostMonitor', {
            monitorName: `${this.prefix} services`,
            monitorType: 'DIMENSIONAL',
            monitorDimension: 'SERVICE',
          }).attrMonitorArn
        : monitor;
    const subscription = new CfnAnomalySubscription(this, 'CostAnomalies', {
      subscriptionName: `${this.prefix} cost anomalies`,
      monitorArnList: [monitorArn],
      // SNS subscribers take only immediate notifications.
      frequency: 'IMMEDIATE',
      subscribers: [{ type: 'SNS', address: this.topic.topicArn }],
      thresholdExpression: JSON.stringify({
        Dimensions: {
          Key: 'ANOMALY_TOTAL_IMPACT_ABSOLUTE',
          MatchOptions: ['GREATER_THAN_OR_EQUAL'],
          Values: [String(thresholds.costAnomalyUsd)],
        },
      }),
    });
    // The service checks it may publish when the subscription is created.
    subscription.node.addDependency(this.topic);
  }

  /** A business metric as functions/runtime/metrics.ts emits it. */
  private business(metric: keyof typeof businessMetrics, integration?: string): IMetric {
    return new Metric({
      namespace: metricsNamespace,
      metricName: businessMetrics[metric],
      dimensionsMap: {
        service: metricsService,
        stage: this.stage,
        ...(integration ? { integration } : {}),
      },
      statistic: 'Sum',
      period: oneHour,
      label: integration ?? businessMetrics[metric],
    });
  }
}

interface AlarmOptions {
  threshold: number;
  meaning: string;
  /** The docs/operations.md heading under "Alarms" that says what to do. */
  section: string;
  comparison?: ComparisonOperator;
  periods?: number;
  datapoints?: number;
}

const graph = (title: string, metrics: IMetric[]) =>
  new GraphWidget({ title, left: metrics, width: 6, height: 6 });
