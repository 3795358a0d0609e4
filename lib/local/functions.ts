/**
 * Loads the project's Lambda entry points (functions/handlers/<resource>.ts, functions/consumers/<name>.ts)
 * by the same paths CDK bundles, on first use, so the stack starts before any handler is imported and
 * handlers read the environment the stack has set.
 */
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type {
  APIGatewayProxyEventV2,
  APIGatewayProxyResultV2,
  Context,
  SQSBatchResponse,
  SQSEvent,
} from 'aws-lambda';
import { consumerEntry, deadLetterEntry, handlerEntry, type QueueName } from '../resources';

export const repoRoot = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');

export type ApiHandler = (
  event: APIGatewayProxyEventV2,
  context: Context,
) => Promise<APIGatewayProxyResultV2>;
export type ConsumerHandler = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse | undefined>;

const cache = new Map<string, Promise<unknown>>();

async function loadHandler<T>(entry: string): Promise<T> {
  let loading = cache.get(entry);
  if (!loading) {
    loading = import(pathToFileURL(resolve(repoRoot, entry)).href);
    cache.set(entry, loading);
    // A module that failed to load (a syntax error being fixed) is tried again on the next call.
    loading.catch(() => cache.delete(entry));
  }
  const mod = (await loading) as { handler?: T };
  if (typeof mod.handler !== 'function') throw new Error(`${entry} exports no handler`);
  return mod.handler;
}

export const loadApiHandler = (resource: string) => loadHandler<ApiHandler>(handlerEntry(resource));
export const loadConsumer = (name: QueueName) => loadHandler<ConsumerHandler>(consumerEntry(name));
export const loadDeadLetterConsumer = (name: QueueName) =>
  loadHandler<ConsumerHandler>(deadLetterEntry(name));

/** The Lambda context a handler receives; locally only the names and ids mean anything. */
export function lambdaContext(functionName: string, requestId: string, timeoutMs = 30_000): Context {
  const deadline = Date.now() + timeoutMs;
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '1024',
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => {},
    fail: () => {},
    succeed: () => {},
  };
}
