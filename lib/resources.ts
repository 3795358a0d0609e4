/**
 * Shapes of the stateful resources, shared by the CDK stacks and the local stack so that both create the
 * same table, queues and bucket rules. Names here are logical; in AWS, CloudFormation names them.
 */

/** The single table (DESIGN.md section 5, docs/data-model.md). */
export const table = {
  partitionKey: 'pk',
  sortKey: 'sk',
  /** Expiry in epoch seconds for sessions, codes and single-use tokens. */
  ttlAttribute: 'ttl',
  globalIndexes: [{ name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' }],
} as const;

/** The async path: each queue with its dead-letter queue. */
export const queues = {
  fanout: { visibilityTimeoutSeconds: 60, maxReceiveCount: 5, batchSize: 10, consumer: 'fanout' },
  delivery: { visibilityTimeoutSeconds: 120, maxReceiveCount: 5, batchSize: 5, consumer: 'delivery' },
} as const;
export type QueueName = keyof typeof queues;

/** Consumers live in functions/consumers/<name>.ts and export `handler`. */
export const consumerEntry = (name: string) => `functions/consumers/${name}.ts`;
/** Resource functions live in functions/handlers/<resource>.ts and export `handler`. */
export const handlerEntry = (resource: string) => `functions/handlers/${resource}.ts`;

/** The uploads bucket: browsers upload with presigned POSTs, so it answers CORS from anywhere. */
export const uploads = {
  cors: {
    allowedMethods: ['POST', 'GET', 'HEAD'] as const,
    allowedOrigins: ['*'],
    allowedHeaders: ['*'],
    maxAgeSeconds: 3000,
  },
  /** Uploads never confirmed by an issue are removed after a day. */
  pendingPrefix: 'pending/',
  pendingExpiryDays: 1,
  abortIncompleteMultipartDays: 1,
} as const;

/** Where accepted uploads are kept: `p/<projectId>/s/…` and `p/<projectId>/f/…` (functions/issues/uploads.ts). */
export const storedPrefix = 'p/';

/**
 * Resource functions that serve the built widget loader (functions/projects/loader.ts reads it from
 * WIDGET_DIR): their Lambda bundle carries dist/widget/loader.js in `widget/`.
 */
export const widgetResources: readonly string[] = ['widget'];
export const widgetDirInLambda = '/var/task/widget';
