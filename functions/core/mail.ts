/** Outgoing mail through SES (the SES stand-in locally). */
import { SendEmailCommand } from '@aws-sdk/client-ses';
import { ses } from './aws';
import { getConfig } from './config';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export async function sendMail(mail: Mail): Promise<void> {
  await ses().send(
    new SendEmailCommand({
      Source: getConfig().MAIL_FROM,
      Destination: { ToAddresses: [mail.to] },
      Message: {
        Subject: { Data: mail.subject, Charset: 'UTF-8' },
        Body: { Text: { Data: mail.text, Charset: 'UTF-8' }, Html: { Data: mail.html, Charset: 'UTF-8' } },
      },
    }),
  );
}

/** Escape text for the HTML part of a mail: names are user input. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
