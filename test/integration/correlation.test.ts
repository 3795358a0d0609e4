/**
 * One report's correlation id, through the local stack: the intake's request id goes into issue.created,
 * the fan-out copies it into every delivery message, and every log line of the three handlers about that
 * report carries it (docs/operations.md "Alarms": one log query finds a report's whole way). The delivery
 * registry is empty until the integrations issue, so this file registers test deliverers.
 */
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { DeliveryMessage, IntegrationName } from '#contracts/messages';
import type { Deliverer } from '../../functions/integrations/deliver';
import { deliverers } from '../../functions/integrations/delivery-run';
import { eventually } from '../support/local-stack';
import { activateIntegration } from '../support/sites';
import { setUpTestStack } from '../support/stack-fixture';
import { signedIn } from '../support/users';
import { fileReport } from '../support/widget';

/** The handlers' JSON log lines; anything else written is dropped, so the run stays quiet. */
const lines: Record<string, unknown>[] = [];
const level = process.env.LOG_LEVEL;

const stack = setUpTestStack(() => {
  const capture = (chunk: unknown) => {
    for (const line of String(chunk).split('\n')) {
      try {
        const parsed = JSON.parse(line);
        if (parsed && typeof parsed === 'object') lines.push(parsed);
      } catch {
        // Not a log line.
      }
    }
    return true;
  };
  vi.spyOn(process.stdout, 'write').mockImplementation(capture);
  vi.spyOn(process.stderr, 'write').mockImplementation(capture);
  // The handlers run in this process; at info they log what this file checks.
  return { env: { LOG_LEVEL: 'info' } };
});

afterAll(async () => {
  for (const k of Object.keys(deliverers)) delete deliverers[k as IntegrationName];
  await stack.stop();
  vi.restoreAllMocks();
  process.env.LOG_LEVEL = level;
});

const SITE = 'https://shop.example';

describe('correlation id', () => {
  it('follows a report from the intake through fan-out to every delivery, on every log line', async () => {
    const { client, email } = await signedIn(stack.url);
    // Webhooks need a plan with integrations (email does not).
    await client.post('/api/dev/plan', { username: email, plan: 'BASIC_PLAN', days: 30 });
    const created = await client.post('/api/client/website', { name: 'Shop', url: 'shop.example' });
    const projectId = (created.body as { msg: { id: string } }).msg.id;
    const integrations: IntegrationName[] = ['email', 'webhooks'];
    for (const name of integrations) await activateIntegration(stack.tableName, projectId, name);
    const delivered: DeliveryMessage[] = [];
    for (const name of integrations)
      (deliverers as Record<IntegrationName, Deliverer>)[name] = async (ctx) => {
        ctx.log.info('test deliverer sent', { integration: name });
        delivered.push({
          projectId: ctx.project.id,
          issueNumber: ctx.issue.number,
          integration: name,
          correlationId: ctx.correlationId,
        });
        return {};
      };

    const number = await fileReport(stack.url, projectId, SITE, { fields: { msg: 'Checkout broken' } });
    // The consumer logs "delivered" after the deliverer returned: wait for both lines too, not only the sends.
    const deliveredLines = () =>
      lines.filter(
        (l) => l.message === 'delivered' && l.consumer === 'delivery' && l.projectId === projectId,
      );
    await eventually(
      async () =>
        delivered.filter((d) => d.projectId === projectId).length === 2 && deliveredLines().length === 2
          ? true
          : undefined,
      30_000,
      'both deliveries',
    );

    const filed = lines.find((l) => l.message === 'report filed' && l.projectId === projectId);
    expect(filed, 'the intake logs the filed report').toBeDefined();
    const correlationId = filed!.correlationId as string;
    // The intake's own request id, so its gateway and access log lines are found by the same value.
    expect(correlationId).toBe(filed!.requestId);
    expect(correlationId).toMatch(/\S{8,}/);

    expect(delivered.map((d) => d.correlationId)).toEqual([correlationId, correlationId]);
    const ours = lines.filter((l) => l.correlationId === correlationId);
    const said = (message: string, consumer?: string) =>
      ours.filter((l) => l.message === message && (consumer === undefined || l.consumer === consumer));
    expect(said('report filed')).toHaveLength(1);
    expect(said('fanned out', 'fanout')).toHaveLength(1);
    expect(said('test deliverer sent', 'delivery')).toHaveLength(2);
    expect(said('delivered', 'delivery')).toHaveLength(2);
    // No line about this report goes without the id.
    const aboutIt = lines.filter(
      (l) => l.projectId === projectId && (l.issueNumber === number || l.number === number),
    );
    expect(aboutIt.length).toBeGreaterThanOrEqual(4);
    for (const l of aboutIt) expect(l.correlationId, JSON.stringify(l)).toBe(correlationId);
  });
});
