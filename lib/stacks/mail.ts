/**
 * SES sending identity for the mail domain. Without a hosted zone in this app the DKIM CNAMEs that SES
 * generates must be published by hand (they are in the SES console after the first deploy).
 */
import type { IGrantable } from 'aws-cdk-lib/aws-iam';
import { EmailIdentity, Identity } from 'aws-cdk-lib/aws-ses';
import { Construct } from 'constructs';

export class Mail extends Construct {
  readonly identity: EmailIdentity;
  /** The From header of every mail Snag sends. */
  readonly from: string;

  constructor(scope: Construct, id: string, mailDomain: string) {
    super(scope, id);
    this.identity = new EmailIdentity(this, 'Identity', { identity: Identity.domain(mailDomain) });
    this.from = `Snag <no-reply@${mailDomain}>`;
  }

  /** ses:SendEmail/SendRawEmail scoped to this identity only. */
  grantSend(grantee: IGrantable): void {
    this.identity.grantSendEmail(grantee);
  }
}
