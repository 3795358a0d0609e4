import { describe, expect, it } from 'vitest';
import { type Needs, queueNames, variablesFor } from '#contracts/manifest';
import { apiFunctions, functionNeeds, manifests, queueDecls, resources } from '../../../functions/manifests';
import { routes } from '../../../functions/routes';
import { type AwsCall, coverage, describeCall } from '../../support/aws-commands';

describe('the manifests', () => {
  it('declare each queue once, with a consumer whose timeout fits 6 times in the visibility timeout', () => {
    const declared = manifests.flatMap((m) => Object.keys('queues' in m ? m.queues : {}));
    expect([...declared].sort()).toEqual([...queueNames].sort());
    for (const q of queueNames) {
      const decl = queueDecls[q];
      expect(decl.visibilityTimeoutSeconds).toBeGreaterThanOrEqual(6 * decl.consumer.timeoutSeconds);
      expect(decl.maxConcurrency).toBeGreaterThanOrEqual(2); // Lambda's floor for SQS maximum concurrency
    }
  });

  it('give every route to exactly one resource function, each resource a route', () => {
    const keys = routes.map((r) => `${r.method} ${r.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const resource of resources) expect(routes.some((r) => r.resource === resource)).toBe(true);
    expect(Object.keys(apiFunctions)).toEqual(resources);
  });

  it('keep the public functions narrow: no mail, no secrets, no deletes beyond uploads', () => {
    const needs = functionNeeds();
    const widget = needs.get('api:widget')!;
    expect(widget).toEqual({ table: 'read', widget: true });
    const intake = needs.get('api:intake')!;
    expect(intake.mail ?? false).toBe(false);
    expect(intake.secrets ?? false).toBe(false);
  });

  it('name the environment a function gets from its needs', () => {
    expect(variablesFor({ table: 'read' })).toEqual(['TABLE_NAME']);
    expect(variablesFor({ objects: { read: ['p/'] }, sendTo: ['fanout'], mail: true })).toEqual([
      'UPLOADS_BUCKET',
      'FANOUT_QUEUE_URL',
      'MAIL_FROM',
    ]);
    expect(variablesFor({ probe: true })).toEqual([
      'TABLE_NAME',
      'UPLOADS_BUCKET',
      'FANOUT_QUEUE_URL',
      'DELIVERY_QUEUE_URL',
      'TRACKER_QUEUE_URL',
      'SIMILAR_QUEUE_URL',
      'PRIVACY_QUEUE_URL',
    ]);
  });
});

describe('the command check (test/support/aws-commands.ts)', () => {
  const call = (client: string, command: string, input: Record<string, unknown> = {}): AwsCall =>
    describeCall(client, command, input);
  const ok = (needs: Needs, c: AwsCall) => expect(coverage(needs, c), JSON.stringify(c)).toBeNull();
  const refused = (needs: Needs, c: AwsCall) => expect(coverage(needs, c), JSON.stringify(c)).not.toBeNull();

  it('allows table reads on read, writes only on readwrite, and never a Scan', () => {
    ok({ table: 'read' }, call('DynamoDBClient', 'QueryCommand'));
    refused({ table: 'read' }, call('DynamoDBClient', 'TransactWriteItemsCommand'));
    ok({ table: 'readwrite' }, call('DynamoDBClient', 'TransactWriteItemsCommand'));
    refused({ table: 'readwrite' }, call('DynamoDBClient', 'ScanCommand'));
    refused({}, call('DynamoDBClient', 'GetItemCommand'));
    refused({ table: 'readwrite' }, call('DynamoDBClient', 'DescribeTableCommand'));
  });

  it('checks object keys against the declared prefixes, both ends of a copy, and list prefixes', () => {
    const intake: Needs = {
      objects: { read: ['pending/'], write: ['pending/', 'p/'], delete: ['pending/'] },
    };
    ok(intake, call('S3Client', 'HeadObjectCommand', { Key: 'pending/x/file/a.pdf' }));
    refused(intake, call('S3Client', 'HeadObjectCommand', { Key: 'p/x/f/a.pdf' }));
    ok(
      intake,
      call('S3Client', 'CopyObjectCommand', {
        Key: 'p/x/f/b.pdf',
        CopySource: 'bucket/pending/x/file/a.pdf',
      }),
    );
    refused(
      intake,
      call('S3Client', 'CopyObjectCommand', { Key: 'p/x/f/b.pdf', CopySource: 'bucket/p/y/f/c.pdf' }),
    );
    refused(
      intake,
      call('S3Client', 'DeleteObjectsCommand', {
        Delete: { Objects: [{ Key: 'pending/a' }, { Key: 'p/b' }] },
      }),
    );
    refused(intake, call('S3Client', 'ListObjectsV2Command', { Prefix: 'pending/' }));
    ok({ objects: { list: ['p/'] } }, call('S3Client', 'ListObjectsV2Command', { Prefix: 'p/x/' }));
    refused({ objects: { read: ['p/'] } }, call('S3Client', 'HeadBucketCommand'));
  });

  it('checks queues, mail and secrets', () => {
    const url = (q: string) => `http://127.0.0.1:1/000000000000/snag-${q}`;
    ok({ sendTo: ['fanout'] }, call('SQSClient', 'SendMessageCommand', { QueueUrl: url('fanout') }));
    refused(
      { sendTo: ['fanout'] },
      call('SQSClient', 'SendMessageBatchCommand', { QueueUrl: url('delivery') }),
    );
    ok({ probe: true }, call('SQSClient', 'GetQueueAttributesCommand', { QueueUrl: url('delivery') }));
    ok({ mail: true }, call('SESClient', 'SendEmailCommand'));
    refused({}, call('SESClient', 'SendEmailCommand'));
    ok({ secrets: true }, call('SSMClient', 'GetParameterCommand'));
    refused({ table: 'readwrite' }, call('SSMClient', 'GetParameterCommand'));
  });
});
