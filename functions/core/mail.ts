/** Outgoing mail through SES (the SES stand-in locally). */
import { getConfig } from './config';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Copies (the email integration's CC, at most 3). */
  cc?: string[];
}

/** Sends one mail; answers SES's message id. */
export async function sendMail(mail: Mail): Promise<string | undefined> {
  // Loaded on first send: most calls of the functions that can mail never do, and the SDK costs cold start.
  const [{ SendEmailCommand }, { ses }] = await Promise.all([
    import('@aws-sdk/client-ses'),
    import('./aws/ses'),
  ]);
  const out = await ses().send(
    new SendEmailCommand({
      Source: getConfig().MAIL_FROM,
      Destination: { ToAddresses: [mail.to], ...(mail.cc?.length ? { CcAddresses: mail.cc } : {}) },
      Message: {
        Subject: { Data: mail.subject, Charset: 'UTF-8' },
        Body: { Text: { Data: mail.text, Charset: 'UTF-8' }, Html: { Data: mail.html, Charset: 'UTF-8' } },
      },
    }),
  );
  return out.MessageId;
}

/** Escape text for the HTML part of a mail: names are user input. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
