/** Outgoing mail through SES (the SES stand-in locally). */
import { getConfig } from './config';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export async function sendMail(mail: Mail): Promise<void> {
  // Loaded on first send: most calls of the functions that can mail never do, and the SDK costs cold start.
  const [{ SendEmailCommand }, { ses }] = await Promise.all([
    import('@aws-sdk/client-ses'),
    import('./aws/ses'),
  ]);
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
