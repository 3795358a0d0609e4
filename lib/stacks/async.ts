/**
 * The async path (DESIGN.md section 2): fan-out queue -> fan-out Lambda -> delivery queue -> delivery
 * Lambda. Each queue has a dead-letter queue; consumers report partial batch failures so one bad message
 * is retried alone. Queue settings come from lib/resources.ts, shared with the local stack.
 */
import { Duration } from 'aws-cdk-lib';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { consumerEntry, type QueueName, queues } from '../resources';
import type { Settings } from '../settings';
import { grantTableItems } from './grants';
import { SnagFunction } from './lambda';

/** Both queues with their dead-letter queues. */
export class Queues extends Construct {
  readonly queues: Record<QueueName, Queue>;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    const make = (name: QueueName) => {
      const shape = queues[name];
      const dlq = new Queue(this, `${name}Dlq`, {
        retentionPeriod: Duration.days(14),
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
      });
      return new Queue(this, name, {
        visibilityTimeout: Duration.seconds(shape.visibilityTimeoutSeconds),
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        deadLetterQueue: { queue: dlq, maxReceiveCount: shape.maxReceiveCount },
      });
    };
    this.queues = { fanout: make('fanout'), delivery: make('delivery') };
  }
}

export interface ConsumersProps {
  settings: Settings;
  queues: Queues;
  table: Table;
  environment: Record<string, string>;
}

export class Consumers extends Construct {
  readonly functions: Record<QueueName, SnagFunction>;

  constructor(scope: Construct, id: string, props: ConsumersProps) {
    super(scope, id);
    const make = (name: QueueName, timeout: Duration) => {
      const shape = queues[name];
      const consumer = new SnagFunction(this, name, {
        entry: consumerEntry(shape.consumer),
        settings: props.settings,
        environment: props.environment,
        // A batch must finish well inside the visibility timeout, or its messages are delivered twice.
        timeout,
        description: `Snag ${name} queue consumer`,
      });
      consumer.fn.addEventSource(
        new SqsEventSource(props.queues.queues[name], {
          batchSize: shape.batchSize,
          reportBatchItemFailures: true,
        }),
      );
      return consumer;
    };
    const fanout = make('fanout', Duration.seconds(queues.fanout.visibilityTimeoutSeconds / 3));
    const delivery = make('delivery', Duration.seconds(queues.delivery.visibilityTimeoutSeconds / 2));
    // Fan-out lists a project's integrations and enqueues one delivery each.
    grantTableItems(props.table, fanout.role, 'read');
    props.queues.queues.delivery.grantSendMessages(fanout.role);
    // Delivery reads the issue it sends; sending mail is granted by the stack (Mail).
    grantTableItems(props.table, delivery.role, 'read');
    this.functions = { fanout, delivery };
  }
}
