/**
 * The DynamoDB requests the handlers send, by command name. The local stack runs the handlers in the test's
 * own process, and the document client sends through this client's middleware stack, so every request
 * passes here. Tests compare the work of two paths with it; the bench counts requests per call.
 */
import { dynamo } from '#runtime/aws/dynamo';
import { type HookableClient, onNewClient } from '#runtime/aws/options';
import { runningFunction } from '../../lib/local/invocation';

let watchers = 0;

export function watchDynamo() {
  const calls: string[] = [];
  const name = `snagWatch${++watchers}`;
  dynamo().middlewareStack.add(
    (next, context) => async (args) => {
      calls.push(String(context.commandName ?? 'unknown'));
      return next(args);
    },
    { step: 'initialize', name },
  );
  return {
    calls,
    /** The calls made while `run` ran. */
    async during<T>(run: () => Promise<T>): Promise<string[]> {
      calls.length = 0;
      await run();
      return [...calls];
    },
    stop: () => dynamo().middlewareStack.remove(name),
  };
}

/**
 * The DynamoDB commands one deployed function (`api:<resource>`, as the local stack names it) sends for a
 * call, its session read included: what DESIGN.md section 7's request budget counts. Call at module load,
 * before the stack starts, so every client the stack creates is hooked.
 */
export function countFunctionRequests(fn: string) {
  const calls: string[] = [];
  onNewClient((client: HookableClient) => {
    (client.middlewareStack.add as unknown as (mw: unknown, o: { step: string; name: string }) => void).call(
      client.middlewareStack,
      (next: (a: unknown) => Promise<unknown>, context: Record<string, unknown>) => async (args: unknown) => {
        if (context.clientName === 'DynamoDBClient' && runningFunction() === fn)
          calls.push(String(context.commandName));
        return next(args);
      },
      { step: 'initialize', name: `requestCounter:${fn}` },
    );
  });
  return async (call: () => Promise<unknown>): Promise<string[]> => {
    calls.length = 0;
    await call();
    return [...calls];
  };
}
