/** GET /api/health probes every dependency (functions/handlers/health.ts) and may do nothing else. */
import { type IGrantable, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Queues } from './async';
import type { Data } from './data';

export function healthProbeGrants(grantee: IGrantable, data: Data, queues: Queues): void {
  const add = (actions: string[], resources: string[]) =>
    grantee.grantPrincipal.addToPrincipalPolicy(new PolicyStatement({ actions, resources }));
  add(['dynamodb:DescribeTable'], [data.table.tableArn]);
  // HeadBucket is authorised by s3:ListBucket on the bucket itself.
  add(['s3:ListBucket'], [data.uploads.bucketArn]);
  add(['sqs:GetQueueAttributes'], [queues.queues.fanout.queueArn, queues.queues.delivery.queueArn]);
}
