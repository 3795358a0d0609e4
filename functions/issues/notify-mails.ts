/**
 * The notification mails (issue 23), in the recipient's language (USER `lang`, decision Tr-N3), plain text
 * and HTML in the layout of Snag's other mails: one mail lists every event of one flush for one person
 * (a bulk action of 100 assignments is one mail), the digest lists a day's new issues. Each names the
 * issue (number, title), its project, links to it on the dashboard, quotes the comment where there is one,
 * and ends with one unsubscribe link per kind of event it holds (decision Tr-N5). Every stored value is
 * HTML-escaped, and the subject is one line.
 */
import type { Lang } from '#contracts/errors';
import type { NotificationKind } from '#contracts/triage';
import { getConfig } from '#runtime/config';
import { escapeHtml, type Mail, mailButton, mailMuted, mailPage } from '#runtime/mail';
import { unsubscribeToken } from '../accounts/notifications';
import { kindLabels, settingsUrl } from '../accounts/unsubscribe-page';
import type { MailEvent, Recipient } from './notify-recipients';
import { issuePageUrl } from './page-url';

/** The setting that governs each event kind. */
export const settingOfKind = {
  new: 'newIssue',
  assigned: 'assigned',
  mentioned: 'mentioned',
  comment: 'comments',
} as const satisfies Record<MailEvent['kind'], NotificationKind>;

/** A long batch lists this many events and counts the rest (the dashboard has them all). */
export const MAIL_EVENTS_SHOWN = 50;

const q = { en: (s: string) => `“${s}”`, de: (s: string) => `„${s}“` };

/**
 * Who did it: the name as it was then; a change through an API token names the token too, as the
 * dashboard's timeline does ("Ada Lovelace via API token CI", decision API-13): these mails go to the team.
 */
const who = {
  en: (e: MailEvent) => (e.by ? (e.byToken ? `${e.by} via API token ${e.byToken}` : e.by) : 'Someone'),
  de: (e: MailEvent) => (e.by ? (e.byToken ? `${e.by} über API-Token ${e.byToken}` : e.by) : 'Jemand'),
} satisfies Record<Lang, unknown>;

const texts = {
  en: {
    greeting: (n: string) => (n ? `Hello ${n},` : 'Hello,'),
    intro: 'here is what happened on Snag:',
    digestIntro: 'these issues were reported since your last digest:',
    line: (e: MailEvent, issue: string) =>
      ({
        new: `New issue ${issue}`,
        assigned: `${who.en(e)} assigned ${issue} to you`,
        mentioned: `${who.en(e)} mentioned you on ${issue}`,
        comment: `${who.en(e)} commented on ${issue}`,
      })[e.kind],
    internal: 'internal',
    open: 'Open',
    more: (n: number) => `…and ${n} more in Snag.`,
    one: (e: MailEvent) =>
      ({
        new: `New issue #${e.number}`,
        assigned: `#${e.number} assigned to you`,
        mentioned: `You were mentioned on #${e.number}`,
        comment: `New comment on #${e.number}`,
      })[e.kind],
    many: (n: number) => `${n} notifications from Snag`,
    digest: (n: number) => `Snag daily digest: ${n} new ${n === 1 ? 'issue' : 'issues'}`,
    why: 'You receive this mail because of your notification settings:',
    unsubscribe: (what: string) => `Unsubscribe from emails about ${what}:`,
  },
  de: {
    greeting: (n: string) => (n ? `Hallo ${n},` : 'Hallo,'),
    intro: 'das ist in Snag passiert:',
    digestIntro: 'diese Meldungen sind seit Ihrer letzten Zusammenfassung eingegangen:',
    line: (e: MailEvent, issue: string) =>
      ({
        new: `Neue Meldung ${issue}`,
        assigned: `${who.de(e)} hat Ihnen ${issue} zugewiesen`,
        mentioned: `${who.de(e)} hat Sie bei ${issue} erwähnt`,
        comment: `${who.de(e)} hat ${issue} kommentiert`,
      })[e.kind],
    internal: 'intern',
    open: 'Öffnen',
    more: (n: number) => `…und ${n} weitere in Snag.`,
    one: (e: MailEvent) =>
      ({
        new: `Neue Meldung #${e.number}`,
        assigned: `#${e.number} wurde Ihnen zugewiesen`,
        mentioned: `Sie wurden bei #${e.number} erwähnt`,
        comment: `Neuer Kommentar zu #${e.number}`,
      })[e.kind],
    many: (n: number) => `${n} Benachrichtigungen von Snag`,
    digest: (n: number) => `Snag-Tageszusammenfassung: ${n} ${n === 1 ? 'neue Meldung' : 'neue Meldungen'}`,
    why: 'Sie erhalten diese E-Mail wegen Ihrer Benachrichtigungseinstellungen:',
    unsubscribe: (what: string) => `E-Mails über ${what} abbestellen:`,
  },
} satisfies Record<Lang, unknown>;

const oneLine = (s: string) => s.replace(/[\r\n\t]+/g, ' ').trim();

/**
 * A comment that both mentions someone and is on their issue tells them once (as the mention), and the
 * events are listed oldest first.
 */
export function mailEvents(events: MailEvent[]): MailEvent[] {
  const mentioned = new Set(events.filter((e) => e.kind === 'mentioned').map((e) => e.commentId));
  return events
    .filter((e) => !(e.kind === 'comment' && e.commentId && mentioned.has(e.commentId)))
    .sort((a, b) => a.at - b.at);
}

export function unsubscribeUrl(token: string, lang: Lang): string {
  const url = new URL('/api/notifications/unsubscribe', getConfig().APP_ORIGIN);
  url.searchParams.set('token', token);
  if (lang === 'de') url.searchParams.set('lng', 'de');
  return url.toString();
}

async function unsubscribeLinks(userId: string, kinds: NotificationKind[], lang: Lang) {
  return Promise.all(
    [...new Set(kinds)].map(async (kind) => ({
      kind,
      url: unsubscribeUrl(await unsubscribeToken(userId, kind), lang),
    })),
  );
}

function render(
  to: Recipient,
  subject: string,
  intro: string,
  events: MailEvent[],
  links: { kind: NotificationKind; url: string }[],
): Mail {
  const { lang } = to;
  const t = texts[lang];
  const shown = events.slice(0, MAIL_EVENTS_SHOWN);
  const rest = events.length - shown.length;
  const issue = (e: MailEvent) => `#${e.number} ${q[lang](oneLine(e.title) || `#${e.number}`)}`;
  const heading = (e: MailEvent) =>
    `[${oneLine(e.projectName)}] ${t.line(e, issue(e))}${e.internal ? ` (${t.internal})` : ''}`;
  const text = [
    t.greeting(to.firstName),
    '',
    intro,
    '',
    ...shown.flatMap((e) => [
      heading(e),
      ...(e.excerpt ? [`> ${e.excerpt}`] : []),
      `${t.open}: ${issuePageUrl(e.projectId, e.number)}`,
      '',
    ]),
    ...(rest > 0 ? [t.more(rest), ''] : []),
    '--',
    `${t.why} ${settingsUrl()}`,
    ...links.map((l) => `${t.unsubscribe(kindLabels[lang][l.kind])} ${l.url}`),
  ].join('\n');
  const e = escapeHtml;
  const html = mailPage(
    [
      `<p>${e(t.greeting(to.firstName))}</p><p>${e(intro)}</p>`,
      ...shown.map((ev) => {
        const url = issuePageUrl(ev.projectId, ev.number);
        return `<div style="border-top:1px solid #e5e7eb;padding:8px 0"><p style="margin:0 0 4px"><a href="${e(url)}">${e(heading(ev))}</a></p>${
          ev.excerpt
            ? `<blockquote style="margin:0 0 4px;padding-left:8px;border-left:3px solid #e5e7eb;color:#374151;white-space:pre-wrap">${e(ev.excerpt)}</blockquote>`
            : ''
        }</div>`;
      }),
      rest > 0 ? `<p>${e(t.more(rest))}</p>` : '',
      shown.length === 1 && shown[0]
        ? mailButton(issuePageUrl(shown[0].projectId, shown[0].number), t.open)
        : '',
      mailMuted(`${e(t.why)} <a href="${e(settingsUrl())}" style="color:#6b7280">${e(settingsUrl())}</a>`),
      ...links.map((l) =>
        mailMuted(
          `${e(t.unsubscribe(kindLabels[lang][l.kind]))} <a href="${e(l.url)}" style="color:#6b7280">${e(l.url)}</a>`,
        ),
      ),
    ]
      .filter(Boolean)
      .join('\n'),
  );
  return { to: to.email, subject: oneLine(subject).slice(0, 200), text, html };
}

/** One person's mail of one flush: every event, one mail. */
export async function batchMail(userId: string, to: Recipient, all: MailEvent[]): Promise<Mail> {
  const events = mailEvents(all);
  const t = texts[to.lang];
  const first = events[0];
  const subject =
    events.length === 1 && first
      ? `[${oneLine(first.projectName)}] ${t.one(first)}: ${oneLine(first.title)}`
      : t.many(events.length);
  const links = await unsubscribeLinks(
    userId,
    events.map((e) => settingOfKind[e.kind]),
    to.lang,
  );
  return render(to, subject, t.intro, events, links);
}

/** One person's daily digest of new issues. */
export async function digestMail(userId: string, to: Recipient, all: MailEvent[]): Promise<Mail> {
  const events = mailEvents(all);
  const t = texts[to.lang];
  return render(
    to,
    t.digest(events.length),
    t.digestIntro,
    events,
    await unsubscribeLinks(userId, ['newIssue'], to.lang),
  );
}
