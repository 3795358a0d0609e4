/**
 * Least-privilege grants, written out instead of the CDK `grant*` helpers where those would hand out
 * more than Snag's code calls (Scan, stream reads, `index/*`, `s3:List*`/`s3:*Object*` wildcards).
 */
import { Arn, type CfnResource, Stack, Validations } from 'aws-cdk-lib';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { type IGrantable, PolicyStatement, type Role } from 'aws-cdk-lib/aws-iam';
import type { Bucket } from 'aws-cdk-lib/aws-s3';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { storedPrefix, table as tableShape, uploads } from '../resources';

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

/** Read, upload (also through presigned POSTs signed with this role) and delete objects. */
export function grantObjects(bucket: Bucket, role: Role): void {
  role.addToPrincipalPolicy(
    new PolicyStatement({
      actions: ['s3:GetObject', 's3:PutObject', 's3:DeleteObject'],
      resources: [bucket.arnForObjects('*')],
    }),
  );
  Validations.of(role).acknowledge({
    id: `AwsSolutions-IAM5[Resource::${nagArnRef(bucket)}/*]`,
    reason:
      "Object keys are generated per upload (DESIGN.md section 5), so object actions name the bucket's keys " +
      'by wildcard; the actions are exactly get, put and delete, and the bucket holds only uploads.',
  });
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

/**
 * What the widget's intake (functions/issues/*) does in S3 and SQS, and nothing more: presign uploads to
 * `pending/*` (the POST is authorised as this role's PutObject), read them back (HeadObject, and the source
 * of CopyObject), copy them to `p/*` and delete them; delete its own copies of a failed report; send
 * `issue.created` to the fan-out queue.
 */
export function grantIntake(bucket: Bucket, fanout: IQueue, role: Role): void {
  const pending = bucket.arnForObjects(`${uploads.pendingPrefix}*`);
  const stored = bucket.arnForObjects(`${storedPrefix}*`);
  role.addToPrincipalPolicy(
    new PolicyStatement({
      actions: ['s3:PutObject', 's3:GetObject', 's3:DeleteObject'],
      resources: [pending],
    }),
  );
  role.addToPrincipalPolicy(
    new PolicyStatement({ actions: ['s3:PutObject', 's3:DeleteObject'], resources: [stored] }),
  );
  role.addToPrincipalPolicy(
    new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [fanout.queueArn] }),
  );
  for (const prefix of [uploads.pendingPrefix, storedPrefix]) {
    Validations.of(role).acknowledge({
      id: `AwsSolutions-IAM5[Resource::${nagArnRef(bucket)}/${prefix}*]`,
      reason:
        'Upload keys are random per upload (DESIGN.md section 5), so the intake names them by prefix: ' +
        `exactly the object actions it calls, on ${prefix}* only.`,
    });
  }
}

/**
 * What issue review (functions/issues/review.ts) does in S3: read stored objects under `p/*` (HeadObject
 * for the original name, and the presigned GET of a download is authorised as this role's GetObject).
 */
export function grantIssueDownloads(bucket: Bucket, role: Role): void {
  role.addToPrincipalPolicy(
    new PolicyStatement({ actions: ['s3:GetObject'], resources: [bucket.arnForObjects(`${storedPrefix}*`)] }),
  );
  Validations.of(role).acknowledge({
    id: `AwsSolutions-IAM5[Resource::${nagArnRef(bucket)}/${storedPrefix}*]`,
    reason:
      'Stored object names are random per upload (DESIGN.md section 5), so downloads name them by prefix: ' +
      `GetObject only, on ${storedPrefix}* only.`,
  });
}
