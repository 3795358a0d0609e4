/**
 * The small page the unsubscribe link of a notification mail answers (en/de, by the link's `lng`): what
 * was turned off and where to turn it on again, or that the link is not valid (the catalogue's
 * UNSUBSCRIBE_INVALID). Static HTML in the mails' layout; nothing runs and nothing is loaded.
 */
import { errorMessage, type Lang } from '#contracts/errors';
import type { NotificationKind } from '#contracts/triage';
import { getConfig } from '#runtime/config';
import { escapeHtml, mailPage } from '#runtime/mail';

/** What each kind's mails are about (the page, and the mails' footers). */
export const kindLabels: Record<Lang, Record<NotificationKind, string>> = {
  en: {
    newIssue: 'new issues',
    assigned: 'issues assigned to you',
    mentioned: 'mentions of you',
    comments: 'comments on issues assigned to you',
  },
  de: {
    newIssue: 'neue Meldungen',
    assigned: 'Ihnen zugewiesene Meldungen',
    mentioned: 'Erwähnungen von Ihnen',
    comments: 'Kommentare zu Ihnen zugewiesenen Meldungen',
  },
};

const texts = {
  en: {
    title: 'Unsubscribed',
    done: (what: string) => `You will no longer receive emails about ${what}.`,
    again: 'You can turn them on again in your profile:',
  },
  de: {
    title: 'Abgemeldet',
    done: (what: string) => `Sie erhalten keine E-Mails mehr über ${what}.`,
    again: 'In Ihrem Profil können Sie sie wieder einschalten:',
  },
} satisfies Record<Lang, unknown>;

/** Where the settings are (the dashboard's profile screen). */
export const settingsUrl = () => `${getConfig().APP_ORIGIN}/profile/edit`;

const page = (lang: Lang, title: string, body: string) =>
  mailPage(`<h1 style="font-size:20px">${escapeHtml(title)}</h1>${body}`).replace(
    '<html>',
    `<html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head>`,
  );

export function unsubscribedPage(lang: Lang, kind: NotificationKind): string {
  const t = texts[lang];
  const url = settingsUrl();
  return page(
    lang,
    t.title,
    `<p>${escapeHtml(t.done(kindLabels[lang][kind]))}</p><p>${escapeHtml(t.again)} <a href="${escapeHtml(url)}">${escapeHtml(url)}</a></p>`,
  );
}

export function invalidLinkPage(lang: Lang): string {
  const message = errorMessage('UNSUBSCRIBE_INVALID', lang);
  const url = settingsUrl();
  return page(
    lang,
    message.split('.')[0] ?? message,
    `<p>${escapeHtml(message)}</p><p><a href="${escapeHtml(url)}">${escapeHtml(url)}</a></p>`,
  );
}
