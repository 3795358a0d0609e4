/**
 * The stateful resources: the single table and the uploads bucket (shapes from lib/resources.ts, shared
 * with the local stack), plus the bucket that receives S3 and CloudFront access logs.
 */
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, BillingMode, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import {
  BlockPublicAccess,
  Bucket,
  BucketEncryption,
  HttpMethods,
  ObjectOwnership,
} from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { table as tableShape, uploads } from '../resources';
import type { Settings } from '../settings';

/** The defaults every Snag bucket shares: private, encrypted, TLS only. */
export const privateBucketProps = (settings: Settings) => ({
  blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
  encryption: BucketEncryption.S3_MANAGED,
  enforceSSL: true,
  removalPolicy: settings.removalPolicy,
  // Only a disposable dev stack may empty its buckets on delete.
  autoDeleteObjects: settings.removalPolicy === RemovalPolicy.DESTROY,
});

export class Data extends Construct {
  readonly table: Table;
  readonly uploads: Bucket;
  readonly logs: Bucket;

  constructor(scope: Construct, id: string, settings: Settings) {
    super(scope, id);

    this.table = new Table(this, 'Table', {
      partitionKey: { name: tableShape.partitionKey, type: AttributeType.STRING },
      sortKey: { name: tableShape.sortKey, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      timeToLiveAttribute: tableShape.ttlAttribute,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      encryption: TableEncryption.AWS_MANAGED,
      deletionProtection: settings.stage === 'prod',
      removalPolicy: settings.removalPolicy,
    });
    for (const gsi of tableShape.globalIndexes) {
      this.table.addGlobalSecondaryIndex({
        indexName: gsi.name,
        partitionKey: { name: gsi.partitionKey, type: AttributeType.STRING },
        sortKey: { name: gsi.sortKey, type: AttributeType.STRING },
      });
    }

    this.logs = new Bucket(this, 'AccessLogs', {
      ...privateBucketProps(settings),
      // CloudFront standard logging writes with ACLs, so this bucket (alone) keeps them enabled. It logs
      // nothing itself (cdk-nag S1 knows a log destination would only log into itself).
      objectOwnership: ObjectOwnership.BUCKET_OWNER_PREFERRED,
      lifecycleRules: [{ expiration: Duration.days(settings.stage === 'prod' ? 365 : 30) }],
    });

    this.uploads = new Bucket(this, 'Uploads', {
      ...privateBucketProps(settings),
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      serverAccessLogsBucket: this.logs,
      serverAccessLogsPrefix: 'uploads/',
      cors: [
        {
          allowedMethods: uploads.cors.allowedMethods.map((m) => HttpMethods[m]),
          allowedOrigins: [...uploads.cors.allowedOrigins],
          allowedHeaders: [...uploads.cors.allowedHeaders],
          maxAge: uploads.cors.maxAgeSeconds,
        },
      ],
      lifecycleRules: [
        { abortIncompleteMultipartUploadAfter: Duration.days(uploads.abortIncompleteMultipartDays) },
        { prefix: uploads.pendingPrefix, expiration: Duration.days(uploads.pendingExpiryDays) },
        { prefix: uploads.exportsPrefix, expiration: Duration.days(uploads.exportsExpiryDays) },
      ],
    });
  }
}
