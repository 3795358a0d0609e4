/**
 * The log lines and metric lines the functions write: JSON with the fields operators query by, and
 * CloudWatch embedded metric format with the names and dimensions the dashboard reads.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { businessMetrics, metricsNamespace, metricsService } from '#contracts/metrics';
import { resetConfig } from '#runtime/config';
import { createLogger } from '#runtime/log';
import { countBusiness } from '#runtime/metrics';

let lines: string[];
const level = process.env.LOG_LEVEL;

beforeEach(() => {
  lines = [];
  const capture = (chunk: unknown) => {
    lines.push(...String(chunk).split('\n').filter(Boolean));
    return true;
  };
  vi.spyOn(process.stdout, 'write').mockImplementation(capture);
  vi.spyOn(process.stderr, 'write').mockImplementation(capture);
  process.env.LOG_LEVEL = 'info';
  resetConfig();
});

afterEach(() => {
  vi.restoreAllMocks();
  process.env.LOG_LEVEL = level;
  resetConfig();
});

const parsed = () => lines.map((l) => JSON.parse(l) as Record<string, unknown>);

describe('logs', () => {
  it('carry the fields of every parent and of the call, and no field of another call', () => {
    const log = createLogger({ requestId: 'r-1' }).child({ correlationId: 'c-1' });
    log.info('first', { number: 7 });
    log.warn('second');
    log.debug('not at info');
    const [first, second] = parsed();
    expect(parsed()).toHaveLength(2);
    expect(first).toMatchObject({
      message: 'first',
      level: 'INFO',
      requestId: 'r-1',
      correlationId: 'c-1',
      number: 7,
    });
    expect(second).toMatchObject({ message: 'second', level: 'WARN', correlationId: 'c-1' });
    expect(second).not.toHaveProperty('number');
  });

  it('write errors with their message and stack', () => {
    createLogger().error('failed', { err: new Error('boom') });
    expect(JSON.stringify(parsed()[0])).toContain('boom');
  });

  it('carry the X-Ray trace id of the invocation in Lambda, and leave out fields without a value', () => {
    vi.stubEnv(
      '_X_AMZN_TRACE_ID',
      'Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1',
    );
    createLogger({ requestId: 'r-1' }).info('traced', { empty: '', none: null, missing: undefined, zero: 0 });
    vi.unstubAllEnvs();
    createLogger().info('untraced');
    const [traced, untraced] = parsed();
    expect(traced).toEqual({
      level: 'INFO',
      message: 'traced',
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      service: metricsService,
      xray_trace_id: '1-5759e988-bd862e3fe1be46a994272793',
      requestId: 'r-1',
      zero: 0,
    });
    expect(untraced).not.toHaveProperty('xray_trace_id');
  });

  it('write an error with its name, where it was thrown, its cause and its own fields', () => {
    const err = Object.assign(new Error('outer', { cause: new TypeError('inner') }), { status: 503 });
    createLogger().error('failed', { err });
    const logged = parsed()[0]?.err as Record<string, unknown>;
    expect(logged).toMatchObject({ name: 'Error', message: 'outer', status: 503 });
    expect(logged.location).toMatch(/^\S+:\d+$/);
    expect(logged.cause).toMatchObject({ name: 'TypeError', message: 'inner' });
  });

  it('are silent at LOG_LEVEL=silent', () => {
    process.env.LOG_LEVEL = 'silent';
    resetConfig();
    createLogger().error('nothing');
    expect(lines).toEqual([]);
  });
});

describe('business metrics', () => {
  it('are embedded metric lines in the Snag namespace with service, stage and the integration', () => {
    countBusiness('deliveryFailed', 'slack');
    const emf = parsed().find((l) => '_aws' in l) as {
      _aws: {
        CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string }[] }[];
      };
    } & Record<string, unknown>;
    expect(emf).toBeDefined();
    const [directive] = emf._aws.CloudWatchMetrics;
    expect(directive?.Namespace).toBe(metricsNamespace);
    expect(directive?.Metrics.map((m) => m.Name)).toEqual([businessMetrics.deliveryFailed]);
    expect([...(directive?.Dimensions[0] ?? [])].sort()).toEqual(['integration', 'service', 'stage']);
    expect(emf).toMatchObject({ service: 'snag', stage: 'local', integration: 'slack', DeliveriesFailed: 1 });
  });

  it('write nothing at LOG_LEVEL=silent, so the suites stay quiet', () => {
    process.env.LOG_LEVEL = 'silent';
    resetConfig();
    countBusiness('reportFiled');
    expect(lines).toEqual([]);
  });
});
