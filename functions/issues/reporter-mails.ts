/**
 * The mails to a reporter (issue 24), in the project's widget language (reporter-texts/): the confirmation
 * of their report, the team's public comments since the last mail, the resolution or a reopening, or any mix of them in
 * one mail. Each carries a link to the status page (with a token minted for this mail) and the link that
 * stops mails about this issue. Every stored value is HTML-escaped; the subject is one line.
 */
import { getConfig } from '#runtime/config';
import { escapeHtml, MAIL_BODY_STYLE, type Mail, mailButton, mailMuted } from '#runtime/mail';
import { fill, type ReporterLang, type ReporterTexts, reporterTexts } from './reporter-texts';

/** What one mail tells. */
export interface ReporterMailContent {
  lang: ReporterLang;
  to: string;
  /** The From's display name (the project's sender name, else its name). */
  fromName: string;
  projectName: string;
  number: number;
  confirm: boolean;
  resolved: boolean;
  /** Reopened after the reporter heard it was resolved (never with `resolved` or `confirm`). */
  reopened?: boolean;
  /** The team's public comments since the last mail, oldest first: the member's name and the text. */
  comments: { author: string; body: string }[];
  /** The status page's token, fresh for this mail. */
  token: string;
}

export const statusPageUrl = (token: string) => `${getConfig().APP_ORIGIN}/r/${token}`;
export const reporterUnsubscribeUrl = (token: string) =>
  `${getConfig().APP_ORIGIN}/api/reporter/${token}/unsubscribe`;

const oneLine = (s: string) => s.replace(/[\r\n\t]+/g, ' ').trim();

/**
 * The subject says the biggest news: resolved (even when the same mail also confirms a report the team
 * resolved within the minute before the flush), reopened, then received, then a comment.
 */
function subjectOf(t: ReporterTexts, c: ReporterMailContent): string {
  const key = c.resolved
    ? 'resolvedSubject'
    : c.reopened
      ? 'reopenedSubject'
      : c.confirm
        ? 'confirmSubject'
        : 'commentSubject';
  return `${fill(t[key], { n: c.number })} · ${oneLine(c.projectName)}`.slice(0, 200);
}

/** The paragraphs of the mail, in order: what arrived, what the team said, what became of it. */
function paragraphs(t: ReporterTexts, c: ReporterMailContent): string[] {
  const v = { n: c.number, project: oneLine(c.projectName) };
  return [
    ...(c.confirm ? [fill(t.confirmIntro, v)] : []),
    ...(c.comments.length > 0 ? [fill(t.commentIntro, v)] : []),
  ];
}

export function reporterMail(c: ReporterMailContent): Mail & { fromName: string } {
  const t = reporterTexts[c.lang];
  const v = { n: c.number, project: oneLine(c.projectName) };
  const page = statusPageUrl(c.token);
  const unsubscribe = reporterUnsubscribeUrl(c.token);
  const resolvedLine = c.resolved ? [fill(t.resolvedIntro, v)] : c.reopened ? [fill(t.reopenedIntro, v)] : [];
  const text = [
    t.greeting,
    '',
    ...paragraphs(t, c).flatMap((p) => [p, '']),
    ...c.comments.flatMap((cm) => [
      `${oneLine(cm.author)}:`,
      ...cm.body.split('\n').map((l) => `> ${l}`),
      '',
    ]),
    ...resolvedLine.flatMap((p) => [p, '']),
    t.statusLink,
    page,
    '',
    '--',
    fill(t.why, v),
    `${t.unsubscribe} ${unsubscribe}`,
  ].join('\n');
  const e = escapeHtml;
  const html = `<!doctype html><html lang="${c.lang}"><body style="${MAIL_BODY_STYLE}">
<p style="font-size:18px;font-weight:700;margin:16px 0">${e(oneLine(c.projectName))}</p>
<p>${e(t.greeting)}</p>
${paragraphs(t, c)
  .map((p) => `<p>${e(p)}</p>`)
  .join('\n')}
${c.comments
  .map(
    (cm) =>
      `<div style="border-top:1px solid #e5e7eb;padding:8px 0"><p style="margin:0 0 4px;font-weight:600">${e(oneLine(cm.author))}</p><blockquote style="margin:0;padding-left:8px;border-left:3px solid #e5e7eb;white-space:pre-wrap">${e(cm.body)}</blockquote></div>`,
  )
  .join('\n')}
${resolvedLine.map((p) => `<p>${e(p)}</p>`).join('\n')}
<p>${e(t.statusLink)}</p>
${mailButton(page, t.open)}
${mailMuted(`<a href="${e(page)}" style="color:#6b7280">${e(page)}</a>`)}
${mailMuted(e(fill(t.why, v)))}
${mailMuted(`${e(t.unsubscribe)} <a href="${e(unsubscribe)}" style="color:#6b7280">${e(unsubscribe)}</a>`)}
</body></html>`;
  return { to: c.to, subject: subjectOf(t, c), text, html, fromName: c.fromName };
}
