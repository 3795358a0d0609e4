/**
 * Every AWS command a handler sends, checked against what its function's manifest declares (issue 10).
 * IAM is what stops an undeclared call in AWS, and the local stand-ins enforce no IAM: without this check
 * a handler could start calling something its role may not, and only production would say so.
 *
 * `recordCommands()` hooks every AWS client the functions make (functions/runtime/aws/options.ts) and notes,
 * per running function (lib/local/invocation.ts), each command with the table, key, prefix or queue it
 * names. `uncovered()` lists the calls no declared need covers. The integration and e2e suites install
 * it in their setup (test/support/command-check.ts), so every flow they drive is checked.
 */

import type { Needs, QueueName } from '#contracts/manifest';
import { queueNames } from '#contracts/manifest';
import { type HookableClient, onNewClient } from '#runtime/aws/options';
import { functionNeeds } from '../../functions/manifests';
import { runningFunction } from '../../lib/local/invocation';

export interface AwsCall {
  service: 'dynamodb' | 's3' | 'sqs' | 'ses' | 'ssm' | 'other';
  /** The API action: GetItem, CopyObject, SendMessageBatch… */
  action: string;
  /** Object keys (S3: the key, a copy's source key, or a list prefix), when the action names some. */
  keys?: string[];
  queue?: string;
}

const services: Record<string, AwsCall['service']> = {
  DynamoDBClient: 'dynamodb',
  S3Client: 's3',
  SQSClient: 'sqs',
  SESClient: 'ses',
  SSMClient: 'ssm',
};

/** The queue a URL names: the local stand-in calls them snag-<name> (lib/local/sqs.ts). */
const queueOf = (url: unknown) =>
  String(url ?? '')
    .split('/')
    .pop()
    ?.replace(/^snag-/, '');

/** What one SDK command is, in the terms of a manifest's needs. */
export function describeCall(
  clientName: string,
  commandName: string,
  input: Record<string, unknown>,
): AwsCall {
  const service = services[clientName] ?? 'other';
  const action = commandName.replace(/Command$/, '');
  if (service === 's3') {
    if (action === 'ListObjectsV2') return { service, action, keys: [String(input.Prefix ?? '')] };
    if (action === 'DeleteObjects') {
      const objects = (input.Delete as { Objects?: { Key?: string }[] } | undefined)?.Objects ?? [];
      return { service, action, keys: objects.map((o) => String(o.Key)) };
    }
    if (action === 'CopyObject') {
      // CopySource is "<bucket>/<key>", URL-encoded.
      const source = decodeURIComponent(String(input.CopySource ?? '')).replace(/^[^/]+\//, '');
      return { service, action, keys: [String(input.Key), source] };
    }
    return { service, action, ...(input.Key !== undefined ? { keys: [String(input.Key)] } : {}) };
  }
  if (service === 'sqs') return { service, action, queue: queueOf(input.QueueUrl) };
  return { service, action };
}

const itemReads = new Set(['GetItem', 'BatchGetItem', 'Query', 'TransactGetItems']);
const itemWrites = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'TransactWriteItems']);

/** Whether `needs` covers `call`; the reason when it does not. */
export function coverage(needs: Needs, call: AwsCall): string | null {
  const under = (prefixes: string[] | undefined, key: string) =>
    (prefixes ?? []).some((p) => key.startsWith(p));
  const objects = needs.objects ?? {};
  const keysIn = (prefixes: string[] | undefined) =>
    (call.keys ?? []).every((k) => under(prefixes, k)) ? null : `${call.action} of ${call.keys?.join(', ')}`;
  switch (call.service) {
    case 'dynamodb':
      if (itemReads.has(call.action)) return needs.table ? null : `${call.action}: no table access declared`;
      if (itemWrites.has(call.action))
        return needs.table === 'readwrite' ? null : `${call.action}: table writes not declared`;
      if (call.action === 'DescribeTable') return needs.probe ? null : 'DescribeTable: only the health probe';
      return `${call.action}: never allowed`;
    case 's3':
      switch (call.action) {
        case 'GetObject':
        case 'HeadObject':
          return keysIn(objects.read);
        // A multipart upload is PutObject to IAM (s3:PutObject covers its create, parts and completion).
        case 'PutObject':
        case 'CreateMultipartUpload':
        case 'UploadPart':
        case 'CompleteMultipartUpload':
          return keysIn(objects.write);
        case 'CopyObject': {
          const [target, source] = call.keys ?? [];
          if (!under(objects.write, target ?? '')) return `CopyObject to ${target}`;
          return under(objects.read, source ?? '') ? null : `CopyObject from ${source}`;
        }
        case 'DeleteObject':
        case 'DeleteObjects':
          return keysIn(objects.delete);
        case 'ListObjectsV2':
          return keysIn(objects.list);
        case 'HeadBucket':
          return needs.probe ? null : 'HeadBucket: only the health probe';
        default:
          return `${call.action}: not a declared S3 need`;
      }
    case 'sqs':
      if (call.action === 'SendMessage' || call.action === 'SendMessageBatch')
        return needs.sendTo?.includes(call.queue as QueueName) ? null : `${call.action} to ${call.queue}`;
      if (call.action === 'ChangeMessageVisibility')
        return needs.delaysRetriesOf === call.queue ? null : `ChangeMessageVisibility on ${call.queue}`;
      if (call.action === 'GetQueueAttributes')
        return needs.probe && queueNames.includes(call.queue as QueueName) ? null : 'GetQueueAttributes';
      return `${call.action}: not a declared SQS need`;
    case 'ses':
      return needs.mail && (call.action === 'SendEmail' || call.action === 'SendRawEmail')
        ? null
        : `${call.action}: mail not declared`;
    case 'ssm':
      return needs.secrets && call.action === 'GetParameter' ? null : `${call.action}: secrets not declared`;
    default:
      return `${call.action}: unknown service`;
  }
}

const seen = new Map<string, Map<string, AwsCall>>();

/** Hooks every AWS client made from now on (call before the stack starts any handler). */
export function recordCommands(): void {
  onNewClient((client: HookableClient) => {
    const add = client.middlewareStack.add as unknown as (
      mw: (
        next: (args: unknown) => Promise<unknown>,
        context: Record<string, unknown>,
      ) => (args: { input: Record<string, unknown> }) => Promise<unknown>,
      options: { step: string; name: string },
    ) => void;
    add.call(
      client.middlewareStack,
      (next, context) => async (args) => {
        const fn = runningFunction();
        if (fn) {
          const call = describeCall(String(context.clientName), String(context.commandName), args.input);
          const calls = seen.get(fn) ?? new Map<string, AwsCall>();
          calls.set(JSON.stringify(call), call);
          seen.set(fn, calls);
        }
        return next(args);
      },
      { step: 'initialize', name: 'snagCommandRecorder' },
    );
  });
}

/** Each recorded call no declared need covers, as "<function>: <reason>"; and the functions seen. */
export function uncovered(): { problems: string[]; functions: string[] } {
  const needs = functionNeeds();
  const problems: string[] = [];
  for (const [fn, calls] of seen) {
    const declared = needs.get(fn);
    for (const call of calls.values()) {
      const reason = declared ? coverage(declared, call) : 'no manifest declares this function';
      if (reason) problems.push(`${fn}: ${reason}`);
    }
  }
  return { problems: [...new Set(problems)].sort(), functions: [...seen.keys()].sort() };
}
