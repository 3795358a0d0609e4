/**
 * Scheduled functions (functions/<domain>/manifest.ts `schedules`): one function per schedule, invoked by
 * an EventBridge rule with the manifest's expression. Locally the local stack runs them on a timer and
 * `npm run ops` runs them by hand (docs/operations.md).
 */
import { Duration } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { Construct } from 'constructs';
import { scheduleDecls } from '../../functions/manifests';
import { scheduleEntry } from '../resources';
import type { Settings } from '../settings';
import { SnagFunction } from './lambda';

export interface SchedulesProps {
  settings: Settings;
  /** The environment of one scheduled function, from what its manifest declares. */
  environmentOf: (name: string) => Record<string, string>;
}

export class Schedules extends Construct {
  readonly functions = new Map<string, SnagFunction>();
  readonly rules = new Map<string, Rule>();

  constructor(scope: Construct, id: string, props: SchedulesProps) {
    super(scope, id);
    for (const [name, decl] of Object.entries(scheduleDecls)) {
      const fn = new SnagFunction(this, name, {
        entry: scheduleEntry(name),
        settings: props.settings,
        environment: props.environmentOf(name),
        timeout: Duration.seconds(decl.timeoutSeconds),
        description: `Snag scheduled ${name}`,
      });
      const rule = new Rule(this, `${name}Rule`, {
        schedule: Schedule.expression(decl.expression),
        description: `Snag ${name} (${decl.expression})`,
      });
      // Two attempts within an hour: the reminder is idempotent, so a retry never mails twice.
      rule.addTarget(new LambdaFunction(fn.fn, { retryAttempts: 2, maxEventAge: Duration.hours(1) }));
      this.functions.set(name, fn);
      this.rules.set(name, rule);
    }
  }
}
