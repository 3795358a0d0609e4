/**
 * SES sending identity for the mail domain. Without a hosted zone in this app the DKIM CNAMEs that SES
 * generates must be published by hand (they are in the SES console after the first deploy).
 *
 * The identity's default configuration set publishes sends, deliveries, bounces, complaints and rejects
 * to CloudWatch (lib/stacks/monitoring.ts alarms on the rates). As the identity's default it applies to
 * every mail sent from it, so the functions pass nothing and need no grant on the configuration set.
 */
import type { IGrantable } from 'aws-cdk-lib/aws-iam';
import {
  CloudWatchDimensionSource,
  ConfigurationSet,
  EmailIdentity,
  EmailSendingEvent,
  EventDestination,
  Identity,
} from 'aws-cdk-lib/aws-ses';
import { Construct } from 'constructs';

/** The CloudWatch dimension SES fills from its automatic tag: the configuration set's own name. */
export const mailDimension = 'ses:configuration-set';

export class Mail extends Construct {
  readonly identity: EmailIdentity;
  readonly configurationSet: ConfigurationSet;
  /** The From header of every mail Snag sends. */
  readonly from: string;

  constructor(scope: Construct, id: string, mailDomain: string) {
    super(scope, id);
    this.configurationSet = new ConfigurationSet(this, 'ConfigurationSet', {});
    this.configurationSet.addEventDestination('CloudWatch', {
      destination: EventDestination.cloudWatchDimensions([
        {
          name: mailDimension,
          source: CloudWatchDimensionSource.MESSAGE_TAG,
          defaultValue: 'snag',
        },
      ]),
      events: [
        EmailSendingEvent.SEND,
        EmailSendingEvent.DELIVERY,
        EmailSendingEvent.BOUNCE,
        EmailSendingEvent.COMPLAINT,
        EmailSendingEvent.REJECT,
      ],
    });
    this.identity = new EmailIdentity(this, 'Identity', {
      identity: Identity.domain(mailDomain),
      configurationSet: this.configurationSet,
    });
    this.from = `Snag <no-reply@${mailDomain}>`;
  }

  /** ses:SendEmail/SendRawEmail scoped to this identity only. */
  grantSend(grantee: IGrantable): void {
    this.identity.grantSendEmail(grantee);
  }
}
