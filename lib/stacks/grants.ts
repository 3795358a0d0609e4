/**
 * Least-privilege grants: exactly what a function's manifest declares (functions/contracts/manifest.ts
 * `Needs`), written out instead of the CDK `grant*` helpers where those would hand out more than Snag's
 * code calls (Scan, stream reads, `index/*`, `s3:List*`/`s3:*Object*` wildcards, unscoped ListBucket).
 */
import { Arn, type CfnResource, Stack, Validations } from 'aws-cdk-lib';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { type IGrantable, PolicyStatement, type Role } from 'aws-cdk-lib/aws-iam';
import type { Bucket } from 'aws-cdk-lib/aws-s3';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import type { BucketPrefix, Needs, QueueName } from '#contracts/manifest';
import { table as tableShape } from '../resources';
import type { Mail } from './mail';

const itemReads = [
  'dynamodb:GetItem',
  'dynamodb:BatchGetItem',
  'dynamodb:Query',
  'dynamodb:ConditionCheckItem',
];
const itemWrites = [
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
];

/**
 * Item access to the table and its named indexes. No Scan: DESIGN.md section 5 forbids it on request
 * paths, and the policy makes that a hard rule.
 */
export function grantTableItems(table: Table, grantee: IGrantable, mode: 'read' | 'readwrite'): void {
  const indexArns = tableShape.globalIndexes.map((i) => `${table.tableArn}/index/${i.name}`);
  grantee.grantPrincipal.addToPrincipalPolicy(
    new PolicyStatement({
      actions: mode === 'read' ? itemReads : [...itemReads, ...itemWrites],
      resources: [table.tableArn, ...indexArns],
    }),
  );
}

/**
 * Read the secrets parameter. It is a SecureString under the AWS managed `aws/ssm` key, whose key policy
 * already lets principals of the account decrypt through SSM, so no kms:Decrypt statement is needed.
 */
export function grantSecretsRead(scope: Stack, parameterName: string, grantee: IGrantable): void {
  grantee.grantPrincipal.addToPrincipalPolicy(
    new PolicyStatement({
      actions: ['ssm:GetParameter'],
      resources: [
        Arn.format(
          { service: 'ssm', resource: 'parameter', resourceName: parameterName.replace(/^\//, '') },
          scope,
        ),
      ],
    }),
  );
}

/** `<LogicalId.Arn>`, the way cdk-nag names a resource's ARN in the findings it reports. */
export const nagArnRef = (resource: Construct) => {
  const cfn = resource.node.defaultChild as CfnResource;
  return `<${Stack.of(resource).resolve(cfn.logicalId)}.Arn>`;
};

/** What the grants refer to: the stack's stateful resources. */
export interface GrantTargets {
  table: Table;
  bucket: Bucket;
  queues: Record<QueueName, IQueue>;
  mail: Mail;
  secretsParameter: string;
}

/** S3 actions per declared object need. */
const objectActions = {
  read: ['s3:GetObject'],
  write: ['s3:PutObject'],
  delete: ['s3:DeleteObject'],
} as const;

/**
 * Grants `role` exactly what `needs` declares, each resource scoped: object actions to their key prefixes,
 * ListBucket only under the declared prefixes (a condition on `s3:prefix`), SendMessage to the named
 * queues, SES to the mail identity, GetParameter to the secrets parameter.
 */
export function grantNeeds(scope: Stack, role: Role, needs: Needs, targets: GrantTargets): void {
  const add = (actions: string[], resources: string[], conditions?: Record<string, unknown>) =>
    role.addToPrincipalPolicy(
      new PolicyStatement({ actions, resources, ...(conditions ? { conditions } : {}) }),
    );
  if (needs.table) grantTableItems(targets.table, role, needs.table);
  const objects = needs.objects ?? {};
  const byPrefix = new Map<BucketPrefix, string[]>();
  for (const kind of ['read', 'write', 'delete'] as const)
    for (const prefix of objects[kind] ?? [])
      byPrefix.set(prefix, [...(byPrefix.get(prefix) ?? []), ...objectActions[kind]]);
  for (const [prefix, actions] of byPrefix) {
    add(actions, [targets.bucket.arnForObjects(`${prefix}*`)]);
    Validations.of(role).acknowledge({
      id: `AwsSolutions-IAM5[Resource::${nagArnRef(targets.bucket)}/${prefix}*]`,
      reason:
        'Object keys are random per upload (DESIGN.md section 5), so object actions name them by prefix: ' +
        `exactly the actions the manifest declares, on ${prefix}* only.`,
    });
  }
  if (objects.list?.length) {
    add(['s3:ListBucket'], [targets.bucket.bucketArn], {
      StringLike: { 's3:prefix': objects.list.map((p) => `${p}*`) },
    });
  }
  for (const queue of needs.sendTo ?? []) add(['sqs:SendMessage'], [targets.queues[queue].queueArn]);
  if (needs.mail) targets.mail.grantSend(role);
  if (needs.secrets) grantSecretsRead(scope, targets.secretsParameter, role);
  if (needs.probe) {
    add(['dynamodb:DescribeTable'], [targets.table.tableArn]);
    // HeadBucket is authorised by s3:ListBucket on the bucket; the probe lists nothing.
    add(['s3:ListBucket'], [targets.bucket.bucketArn]);
    add(
      ['sqs:GetQueueAttributes'],
      Object.values(targets.queues).map((q) => q.queueArn),
    );
  }
}
