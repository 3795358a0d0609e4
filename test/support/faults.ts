/**
 * Fault injection into the handlers' own AWS clients (functions/runtime/aws/*): the local stack runs the
 * handlers in this process, so a middleware added to a shared client's stack sees every command they send.
 * The fault sits below the SDK's retry layer (the `deserialize` step is the innermost), where a real HTTP
 * failure would surface: the SDK retries what it classifies as throttling or transient, exactly as in AWS,
 * and the handler sees the error only once the SDK gives up (its maxAttempts) or at once when the
 * error is not retryable. Each fault fires a bounded number of times, then the command passes.
 */
import {
  ProvisionedThroughputExceededException,
  TransactionCanceledException,
} from '@aws-sdk/client-dynamodb';

/**
 * How many attempts the client makes per command (its retry config: 3 for most services, 4 for DynamoDB in
 * this SDK version): this many faults in a row reach the handler, fewer are absorbed.
 */
export async function sdkAttempts(client: {
  config: { maxAttempts: () => Promise<number> };
}): Promise<number> {
  return client.config.maxAttempts();
}

export interface Fault {
  /** The SDK command's name as the client knows it, e.g. `TransactWriteItemsCommand`. */
  command: string;
  /** How many times to fail; later calls pass. */
  times: number;
  /** Matching calls to let through before failing (for "the second copy fails"). */
  skip?: number;
  /** Only calls whose input this accepts count as matching. */
  when?: (input: Record<string, unknown>) => boolean;
  error: () => Error;
}

export interface Injected {
  /** How many times the fault fired. */
  readonly fired: number;
  /** Matching calls seen, including retries and the ones let through. */
  readonly calls: number;
  remove(): void;
}

// The clients' stacks are typed per service; only `add` and `remove` are used, with the shapes below.
type Next = (args: { input: Record<string, unknown> }) => Promise<unknown>;
interface AnyClient {
  middlewareStack: {
    // biome-ignore lint/suspicious/noExplicitAny: each service types its middleware differently.
    add(middleware: any, options: { step: 'deserialize'; name: string; priority: 'high' }): void;
    remove(name: string): boolean;
  };
}

let serial = 0;

export function injectFault(client: AnyClient, fault: Fault): Injected {
  const name = `fault${++serial}`;
  const state = { fired: 0, calls: 0 };
  client.middlewareStack.add(
    (next: Next, context: { commandName?: string }) => async (args: { input: Record<string, unknown> }) => {
      if (context.commandName === fault.command && (!fault.when || fault.when(args.input))) {
        state.calls++;
        if (state.calls > (fault.skip ?? 0) && state.fired < fault.times) {
          state.fired++;
          throw fault.error();
        }
      }
      return next(args);
    },
    { step: 'deserialize', name, priority: 'high' },
  );
  return {
    get fired() {
      return state.fired;
    },
    get calls() {
      return state.calls;
    },
    remove: () => void client.middlewareStack.remove(name),
  };
}

/** What a service error looks like to the SDK's retry classifier: name, fault side, HTTP status. */
function serviceError(name: string, status: number, fault: 'client' | 'server'): Error {
  return Object.assign(new Error(`injected ${name}`), {
    name,
    $fault: fault,
    $metadata: { httpStatusCode: status, attempts: 1 },
  });
}

export const faults = {
  /** DynamoDB's throttle; the SDK retries it with its throttling backoff. */
  throughputExceeded: () =>
    new ProvisionedThroughputExceededException({
      message: 'injected throttle',
      $metadata: { httpStatusCode: 400 },
    }),
  /** The throttle of the other services and of DynamoDB's control plane. */
  throttling: () => serviceError('ThrottlingException', 400, 'client'),
  /** A 500 from the service: transient, retried by the SDK. */
  internal: () => serviceError('InternalError', 500, 'server'),
  /** A refusal the SDK does not retry (IAM, a bucket policy). */
  accessDenied: () => serviceError('AccessDenied', 403, 'client'),
  /** S3's answer for a key that is not there (a copy's source deleted meanwhile). */
  noSuchKey: () => serviceError('NoSuchKey', 404, 'client'),
  /** SES refusing a message: not retried. */
  messageRejected: () => serviceError('MessageRejected', 400, 'client'),
  /** A cancelled transaction with DynamoDB's reasons, one per action. */
  cancelled: (reasons: string[]) =>
    new TransactionCanceledException({
      message: 'injected cancellation',
      $metadata: { httpStatusCode: 400 },
      CancellationReasons: reasons.map((Code) => ({ Code })),
    }),
};
