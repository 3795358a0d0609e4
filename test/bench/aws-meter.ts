/**
 * Counts what the handlers ask of AWS, for docs/cost.md: every command their shared clients send (the local
 * stack runs them in this process), with the request's wire size, and for DynamoDB the capacity DynamoDB
 * Local reports (`ReturnConsumedCapacity: TOTAL`, table and indexes), which is what on-demand bills as RRU
 * and WRU. Retries inside the SDK are not counted (only the command), as data-model section 1 counts them.
 */
import { dynamo } from '#runtime/aws/dynamo';
import { s3 } from '#runtime/aws/s3';
import { ses } from '#runtime/aws/ses';
import { sqs } from '#runtime/aws/sqs';

export interface CommandTally {
  count: number;
  /** Bytes of the HTTP request bodies sent (the SDK's serialised input). */
  requestBytes: number;
  /** DynamoDB only: capacity units consumed (reads and writes apart). */
  readUnits: number;
  writeUnits: number;
}

export type Tally = Record<string, CommandTally>;

interface Capacity {
  CapacityUnits?: number;
  ReadCapacityUnits?: number;
  WriteCapacityUnits?: number;
}

// Commands that accept ReturnConsumedCapacity; the others (DescribeTable, …) are left alone.
const capacityCommands =
  /^(Get|Put|Update|Delete|BatchGet|BatchWrite|TransactWrite|TransactGet)Item|^(Query|Scan)Command/;

// biome-ignore lint/suspicious/noExplicitAny: the services type their middleware differently.
type AnyStack = { add(mw: any, opts: Record<string, unknown>): void; remove(name: string): boolean };

export interface Meter {
  /** The tally per `service:Command` since the last take, and a fresh one from now. */
  take(): Tally;
  /** The tally so far, without resetting it. */
  peek(): Tally;
  stop(): void;
}

export async function startMeter(): Promise<Meter> {
  let tally: Tally = {};
  const entry = (key: string) => {
    tally[key] ??= { count: 0, requestBytes: 0, readUnits: 0, writeUnits: 0 };
    return tally[key];
  };
  const clients: [string, { middlewareStack: AnyStack }][] = [
    ['dynamodb', dynamo()],
    ['s3', await s3()],
    ['sqs', sqs()],
    ['ses', ses()],
  ];
  for (const [service, client] of clients) {
    client.middlewareStack.add(
      (
        next: (a: unknown) => Promise<{ output?: { ConsumedCapacity?: Capacity | Capacity[] } }>,
        context: { commandName?: string },
      ) =>
        async (args: { input: Record<string, unknown> }) => {
          const command = context.commandName ?? 'unknown';
          const wantsCapacity = service === 'dynamodb' && capacityCommands.test(command);
          if (wantsCapacity) args.input.ReturnConsumedCapacity = 'TOTAL';
          const result = await next(args);
          const e = entry(`${service}:${command.replace(/Command$/, '')}`);
          e.count++;
          const consumed = result.output?.ConsumedCapacity;
          for (const c of Array.isArray(consumed) ? consumed : consumed ? [consumed] : []) {
            // Single-item calls report only CapacityUnits; whether it was read or write follows from the command.
            const write = /Put|Update|Delete|Write/.test(command);
            e.readUnits += c.ReadCapacityUnits ?? (write ? 0 : (c.CapacityUnits ?? 0));
            e.writeUnits += c.WriteCapacityUnits ?? (write ? (c.CapacityUnits ?? 0) : 0);
          }
          return result;
        },
      { step: 'initialize', name: 'costMeter' },
    );
    client.middlewareStack.add(
      (next: (a: unknown) => Promise<unknown>, context: { commandName?: string }) =>
        async (args: { request?: { body?: unknown } }) => {
          const body = args.request?.body;
          const bytes =
            typeof body === 'string' ? Buffer.byteLength(body) : body instanceof Uint8Array ? body.length : 0;
          entry(`${service}:${(context.commandName ?? 'unknown').replace(/Command$/, '')}`).requestBytes +=
            bytes;
          return next(args);
        },
      { step: 'finalizeRequest', name: 'costMeterBytes', priority: 'low' },
    );
  }
  return {
    peek: () => tally,
    take: () => {
      const out = tally;
      tally = {};
      return out;
    },
    stop: () => {
      for (const [, client] of clients) {
        client.middlewareStack.remove('costMeter');
        client.middlewareStack.remove('costMeterBytes');
      }
    },
  };
}
