/**
 * The DynamoDB requests the handlers send, by command name. The local stack runs the handlers in the test's
 * own process, and the document client sends through this client's middleware stack, so every request
 * passes here. Tests compare the work of two paths with it; the bench counts requests per call.
 */
import { dynamo } from '#runtime/aws/dynamo';

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
