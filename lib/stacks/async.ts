/**
 * The async path (DESIGN.md section 2): fan-out queue -> fan-out Lambda -> delivery queue -> delivery
 * Lambda. Each queue has a dead-letter queue; consumers report partial batch failures so one bad message
 * is retried alone. Queue settings come from lib/resources.ts, shared with the local stack.
 */
import { Duration } from 'aws-cdk-lib';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { type Needs, type QueueName, queueNames } from '#contracts/manifest';
import { queueDecls } from '../../functions/manifests';
import { consumerEntry, deadLetterEntry } from '../resources';
import type { Settings } from '../settings';
import { SnagFunction } from './lambda';

/** Every declared queue with its dead-letter queue; both kept with a prod stack (settings.removalPolicy). */
export class Queues extends Construct {
  readonly queues: Record<QueueName, Queue>;
  readonly deadLetters: Record<QueueName, Queue>;

  constructor(scope: Construct, id: string, settings: Settings) {
    super(scope, id);
    const queues = {} as Record<QueueName, Queue>;
    const deadLetters = {} as Record<QueueName, Queue>;
    for (const name of queueNames) {
      const decl = queueDecls[name];
      const dlq = new Queue(this, `${name}Dlq`, {
        retentionPeriod: Duration.days(14),
        // A dead-letter consumer's failed record comes back after this (6x its timeout); SQS's default else.
        ...(decl.deadLetter
          ? { visibilityTimeout: Duration.seconds(decl.deadLetter.visibilityTimeoutSeconds) }
          : {}),
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        removalPolicy: settings.removalPolicy,
      });
      queues[name] = new Queue(this, name, {
        visibilityTimeout: Duration.seconds(decl.visibilityTimeoutSeconds),
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        deadLetterQueue: { queue: dlq, maxReceiveCount: decl.maxReceiveCount },
        removalPolicy: settings.removalPolicy,
      });
      deadLetters[name] = dlq;
    }
    this.queues = queues;
    this.deadLetters = deadLetters;
  }
}

export interface ConsumersProps {
  settings: Settings;
  queues: Queues;
  /** The environment of one consumer, from what its manifest declares. */
  environmentOf: (needs: Needs) => Record<string, string>;
}

/**
 * One consumer per declared queue, with the timeout, batch and concurrency its manifest declares, and one
 * on the dead-letter queue of each queue that declares `deadLetter` (`deadLetterFunctions`).
 */
export class Consumers extends Construct {
  readonly functions: Record<QueueName, SnagFunction>;
  readonly deadLetterFunctions: Partial<Record<QueueName, SnagFunction>>;

  constructor(scope: Construct, id: string, props: ConsumersProps) {
    super(scope, id);
    const functions = {} as Record<QueueName, SnagFunction>;
    this.deadLetterFunctions = {};
    for (const name of queueNames) {
      const decl = queueDecls[name];
      const consumer = new SnagFunction(this, name, {
        entry: consumerEntry(name),
        settings: props.settings,
        environment: props.environmentOf(decl.consumer.needs),
        timeout: Duration.seconds(decl.consumer.timeoutSeconds),
        ...(decl.consumer.needs.memoryMb ? { memorySize: decl.consumer.needs.memoryMb } : {}),
        description: `Snag ${name} queue consumer`,
      });
      consumer.fn.addEventSource(
        new SqsEventSource(props.queues.queues[name], {
          batchSize: decl.batchSize,
          maxConcurrency: decl.maxConcurrency,
          reportBatchItemFailures: true,
        }),
      );
      functions[name] = consumer;
      if (decl.deadLetter) {
        const dead = new SnagFunction(this, `${name}Dlq`, {
          entry: deadLetterEntry(name),
          settings: props.settings,
          environment: props.environmentOf(decl.deadLetter.consumer.needs),
          timeout: Duration.seconds(decl.deadLetter.consumer.timeoutSeconds),
          description: `Snag ${name} dead-letter consumer`,
        });
        dead.fn.addEventSource(
          new SqsEventSource(props.queues.deadLetters[name], {
            batchSize: decl.deadLetter.batchSize,
            maxConcurrency: decl.deadLetter.maxConcurrency,
            reportBatchItemFailures: true,
          }),
        );
        this.deadLetterFunctions[name] = dead;
      }
    }
    this.functions = functions;
  }
}
