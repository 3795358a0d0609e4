/** Outgoing mail through SES (the SES stand-in locally). */
import { getConfig } from './config';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Copies (the email integration's CC, at most 3). */
  cc?: string[];
  /**
   * The From's display name instead of MAIL_FROM's (the reporter's mails name the client's project, issue
   * 24); the address stays MAIL_FROM's, the one SES verified.
   */
  fromName?: string;
}

/** The address part of `Name <address>` (or the whole value when it is a bare address). */
const addressOf = (from: string) => /<([^>]+)>\s*$/.exec(from)?.[1] ?? from.trim();

/**
 * `name <address>` with the name as an RFC 2047 encoded word: any language, and nothing in the name (a
 * quote, a comma, an angle bracket, a line break) can change the header's meaning.
 */
export function fromWithName(from: string, name: string): string {
  const clean = name.replace(/[\r\n]+/g, ' ').trim();
  if (!clean) return from;
  return `=?UTF-8?B?${Buffer.from(clean, 'utf8').toString('base64')}?= <${addressOf(from)}>`;
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
      Source: mail.fromName ? fromWithName(getConfig().MAIL_FROM, mail.fromName) : getConfig().MAIL_FROM,
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

/** The brand colour of Snag's mails: the dashboard's default primary. */
export const MAIL_BRAND_COLOR = '#4F4EAE';
const MUTED = 'font-size:13px;color:#6b7280';

/**
 * The body of every Snag mail: a column a phone and a desktop mail client both show whole. Names come
 * from users (a project may be called by one 100-letter word), so any word breaks where it must rather
 * than push the mail wider than the screen.
 */
export const MAIL_BODY_STYLE =
  'font-family:system-ui,sans-serif;color:#1f2937;max-width:560px;margin:auto;padding:0 12px;overflow-wrap:anywhere;word-break:break-word';

/**
 * The one HTML page of Snag's mails (account, billing, new reports): the Snag wordmark, then `content`
 * (HTML the caller escaped), in a column a phone and a desktop mail client both show whole.
 */
export function mailPage(content: string): string {
  return `<!doctype html><html><body style="${MAIL_BODY_STYLE}">
<p style="font-size:20px;font-weight:700;color:${MAIL_BRAND_COLOR};margin:16px 0">Snag</p>
${content}
</body></html>`;
}

/** The mails' call to action: a button-styled link. */
export function mailButton(href: string, label: string): string {
  return `<p><a href="${escapeHtml(href)}" style="display:inline-block;background:${MAIL_BRAND_COLOR};color:#fff;padding:10px 18px;border-radius:6px;text-decoration:none">${escapeHtml(label)}</a></p>`;
}

/** Small grey text (footers, the link spelled out). `html` is already escaped. */
export const mailMuted = (html: string) => `<p style="${MUTED}">${html}</p>`;
