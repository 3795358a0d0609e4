/**
 * Alarms, the alarm topic and the dashboard (issue 10). The expected alarms are derived from the manifests
 * (every declared queue, every deployed function), never from a list kept here, so a queue or a function
 * added without its alarms fails this file. Synthesized with an alarm address and a cost monitor, the
 * optional parts the dev file leaves out; bundling is skipped (the dev file covers it).
 */
import { readFileSync } from 'node:fs';
import { Match } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { businessMetrics } from '#contracts/metrics';
import { queueDecls, scheduleDecls } from '../../functions/manifests';
import { buildApp } from '../../lib/app';
import { fromRoot } from '../../lib/paths';
import { deployedResources } from '../../lib/stacks/api';
import { mailDimension } from '../../lib/stacks/mail';
import { fakeBuild, logicalId, type Synthesized, synth } from './synth';

const alarmEmail = 'ops@example.com';
let s: Synthesized;

beforeAll(() => {
  s = synth({
    stage: 'prod',
    alarmEmail,
    costAnomalyMonitor: 'create',
    ...fakeBuild(),
    'aws:cdk:bundling-stacks': [],
  });
});

interface AlarmProps {
  Namespace?: string;
  MetricName?: string;
  Dimensions?: { Name: string; Value: unknown }[];
  Metrics?: { Id: string; Expression?: string; MetricStat?: { Metric: WatchedMetric; Stat?: string } }[];
  Threshold: number;
  ComparisonOperator: string;
  AlarmActions: unknown[];
  OKActions: unknown[];
  TreatMissingData: string;
}

const alarms = (): AlarmProps[] =>
  Object.values(s.template.findResources('AWS::CloudWatch::Alarm')).map((r) => r.Properties);

const topicRef = () => ({ Ref: logicalId(s.stack.monitoring.topic) });

interface WatchedMetric {
  Namespace?: string;
  MetricName?: string;
  Dimensions?: { Name: string; Value: unknown }[];
}

/** The metrics an alarm reads: its own, or those of its math (CDK writes a labelled metric that way too). */
const watched = (a: AlarmProps): WatchedMetric[] =>
  a.MetricName ? [a] : (a.Metrics ?? []).flatMap((m) => (m.MetricStat ? [m.MetricStat.Metric] : []));

/** Alarms on one metric of one resource. */
const alarmsOn = (namespace: string, metric: string, dimension: string, value: unknown) =>
  alarms().filter((a) =>
    watched(a).some(
      (m) =>
        m.Namespace === namespace &&
        m.MetricName === metric &&
        JSON.stringify(m.Dimensions) === JSON.stringify([{ Name: dimension, Value: value }]),
    ),
  );

describe('alarms', () => {
  it('alarm when the dead-letter queue of any declared queue holds a message', () => {
    const declared = Object.keys(queueDecls) as (keyof typeof queueDecls)[];
    expect(declared.length).toBeGreaterThan(0);
    for (const queue of declared) {
      const dlq = s.stack.queues.deadLetters[queue];
      expect(dlq, `${queue} has no dead-letter queue`).toBeDefined();
      const found = alarmsOn('AWS/SQS', 'ApproximateNumberOfMessagesVisible', 'QueueName', {
        'Fn::GetAtt': [logicalId(dlq), 'QueueName'],
      });
      expect(found, `DLQ alarm of ${queue}`).toHaveLength(1);
      expect(found[0]).toMatchObject({ Threshold: 0, ComparisonOperator: 'GreaterThanThreshold' });
    }
  });

  it('alarm on errors and on throttles of every deployed function, API and consumers', () => {
    const expected = [
      ...deployedResources().map((r) => ({ name: `api:${r}`, fn: s.stack.api.functions.get(r)?.fn })),
      ...Object.keys(queueDecls).map((q) => ({
        name: `consumer:${q}`,
        fn: s.stack.consumers.functions[q as keyof typeof queueDecls]?.fn,
      })),
      ...Object.entries(queueDecls)
        .filter(([, d]) => d.deadLetter)
        .map(([q]) => ({
          name: `dlq:${q}`,
          fn: s.stack.consumers.deadLetterFunctions[q as keyof typeof queueDecls]?.fn,
        })),
      ...Object.keys(scheduleDecls).map((n) => ({
        name: `schedule:${n}`,
        fn: s.stack.schedules.functions.get(n)?.fn,
      })),
    ];
    for (const { name, fn } of expected) {
      expect(fn, `${name} is not deployed`).toBeDefined();
      for (const metric of ['Errors', 'Throttles']) {
        const found = alarmsOn('AWS/Lambda', metric, 'FunctionName', { Ref: logicalId(fn!) });
        expect(found, `${metric} alarm of ${name}`).toHaveLength(1);
        expect(found[0]).toMatchObject({ Threshold: 0, ComparisonOperator: 'GreaterThanThreshold' });
      }
    }
  });

  it('leave no Snag function of the template without both alarms, whatever declared it', () => {
    const functions = s.template.findResources('AWS::Lambda::Function');
    const ours = Object.entries(functions).filter(([, f]) =>
      String(f.Properties.Description ?? '').startsWith('Snag '),
    );
    const deadLetterConsumers = Object.values(queueDecls).filter((d) => d.deadLetter).length;
    expect(ours.length).toBe(
      deployedResources().length +
        Object.keys(queueDecls).length +
        deadLetterConsumers +
        Object.keys(scheduleDecls).length,
    );
    for (const [id] of ours)
      for (const metric of ['Errors', 'Throttles'])
        expect(
          alarmsOn('AWS/Lambda', metric, 'FunctionName', { Ref: id }),
          `${metric} of ${id}`,
        ).toHaveLength(1);
  });

  it('alarm on the API 5xx rate and its p95 latency', () => {
    const api = { Ref: logicalId(s.stack.api.httpApi) };
    const rate = alarms().find((a) => watched(a).some((m) => m.MetricName === '5xx'));
    expect(rate?.Metrics?.find((m) => m.Expression)?.Expression).toMatch(/100 \* errors \/ requests/);
    expect(JSON.stringify(rate?.Metrics)).toContain(JSON.stringify({ Name: 'ApiId', Value: api }));
    const latency = alarmsOn('AWS/ApiGateway', 'Latency', 'ApiId', api);
    expect(latency).toHaveLength(1);
    expect(JSON.stringify(latency[0])).toMatch(/"(Extended)?Stat(istic)?":"p95"/);
  });

  it('alarm on bounce and complaint rates of the configuration set every mail goes through, and on SES reputation', () => {
    const set = logicalId(s.stack.mail.configurationSet);
    s.template.hasResourceProperties('AWS::SES::EmailIdentity', {
      ConfigurationSetAttributes: { ConfigurationSetName: { Ref: set } },
    });
    s.template.hasResourceProperties('AWS::SES::ConfigurationSetEventDestination', {
      ConfigurationSetName: { Ref: set },
      EventDestination: {
        Enabled: true,
        MatchingEventTypes: Match.arrayWith(['send', 'bounce', 'complaint']),
        CloudWatchDestination: {
          DimensionConfigurations: [
            {
              DimensionName: mailDimension,
              DimensionValueSource: 'messageTag',
              DefaultDimensionValue: 'snag',
            },
          ],
        },
      },
    });
    for (const event of ['Bounce', 'Complaint']) {
      const rate = alarms().find((a) => watched(a).some((m) => m.MetricName === event));
      expect(rate, `${event} rate alarm`).toBeDefined();
      expect(JSON.stringify(rate!.Metrics)).toContain(
        JSON.stringify({ Name: mailDimension, Value: { Ref: set } }),
      );
    }
    for (const metric of ['Reputation.BounceRate', 'Reputation.ComplaintRate'])
      expect(
        alarms().some((a) => watched(a).some((m) => m.Namespace === 'AWS/SES' && m.MetricName === metric)),
      ).toBe(true);
  });

  it('all notify the alarm topic, on alarm and on recovery, and treat no data as nothing wrong', () => {
    expect(alarms().length).toBe(s.stack.monitoring.alarms.size);
    for (const a of alarms()) {
      expect(a.AlarmActions).toEqual([topicRef()]);
      expect(a.OKActions).toEqual([topicRef()]);
      expect(a.TreatMissingData).toBe('notBreaching');
    }
  });
});

describe('runbook', () => {
  it('has the section every alarm description sends the operator to', () => {
    const runbook = readFileSync(fromRoot('docs/operations.md'), 'utf8');
    const descriptions = Object.values(s.template.findResources('AWS::CloudWatch::Alarm')).map(
      (r) => r.Properties.AlarmDescription as string,
    );
    for (const d of descriptions) {
      const section = d.match(/docs\/operations\.md, Alarms, "([^"]+)"/)?.[1];
      expect(section, d).toBeDefined();
      expect(runbook, section).toContain(`\n### ${section}\n`);
    }
  });
});

describe('alarm topic', () => {
  it('is encrypted with a rotated key that CloudWatch and cost alerts may use, and mails the context address', () => {
    const topic = s.template.toJSON().Resources[logicalId(s.stack.monitoring.topic)].Properties;
    expect(topic.KmsMasterKeyId).toEqual({ 'Fn::GetAtt': [expect.any(String), 'Arn'] });
    const keyId = topic.KmsMasterKeyId['Fn::GetAtt'][0];
    const key = s.template.toJSON().Resources[keyId].Properties;
    expect(key.EnableKeyRotation).toBe(true);
    const keyPolicy = JSON.stringify(key.KeyPolicy);
    expect(keyPolicy).toContain('cloudwatch.amazonaws.com');
    expect(keyPolicy).toContain('costalerts.amazonaws.com');
    s.template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: alarmEmail,
      TopicArn: topicRef(),
    });
  });

  it('receives cost anomalies of at least the threshold, when the context asks for a monitor', () => {
    const monitors = s.template.findResources('AWS::CE::AnomalyMonitor');
    expect(Object.values(monitors)).toHaveLength(1);
    const [monitorId] = Object.keys(monitors);
    s.template.hasResourceProperties('AWS::CE::AnomalySubscription', {
      MonitorArnList: [{ 'Fn::GetAtt': [monitorId, 'MonitorArn'] }],
      Frequency: 'IMMEDIATE',
      Subscribers: [{ Type: 'SNS', Address: topicRef() }],
    });
  });

  it('is refused a malformed address or monitor at synth', () => {
    expect(() => buildApp({ alarmEmail: 'ops@example' })).toThrow(/alarmEmail/);
    expect(() => buildApp({ alarmEmail: 'a@example.com,b@example.com' })).toThrow(/alarmEmail/);
    expect(() => buildApp({ costAnomalyMonitor: 'yes' })).toThrow(/costAnomalyMonitor/);
  });
});

describe('dashboard', () => {
  it('shows every dead-letter queue, every function and every business metric', () => {
    const body = JSON.stringify(s.template.findResources('AWS::CloudWatch::Dashboard'));
    for (const name of Object.values(businessMetrics)) expect(body).toContain(name);
    for (const q of Object.keys(queueDecls))
      expect(body).toContain(logicalId(s.stack.queues.deadLetters[q as keyof typeof queueDecls]));
    for (const f of s.stack.api.functions.values()) expect(body).toContain(logicalId(f.fn));
  });
});

describe('cdk-nag', () => {
  it('leaves nothing unacknowledged with the topic, its subscription and the cost monitor', () => {
    expect(s.violations).toEqual([]);
  });
});
