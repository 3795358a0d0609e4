/** The account emails, in English and German, as text and HTML. */

import type { Lang } from '#contracts/errors';
import { getConfig } from '#runtime/config';
import { escapeHtml, type Mail, mailButton, mailMuted, mailPage } from '#runtime/mail';

interface Template {
  subject: string;
  greeting: (name: string) => string;
  body: string;
  action: string;
  footer: string;
}

const confirmation: Record<Lang, Template> = {
  en: {
    subject: 'Confirm your Snag account',
    greeting: (n) => `Hello ${n},`,
    body: 'thanks for signing up for Snag. Please confirm your email address to activate your account. The link is valid for 48 hours.',
    action: 'Confirm email address',
    footer: 'If you did not sign up, you can ignore this email.',
  },
  de: {
    subject: 'Bestätigen Sie Ihr Snag-Konto',
    greeting: (n) => `Hallo ${n},`,
    body: 'danke für Ihre Registrierung bei Snag. Bitte bestätigen Sie Ihre E-Mail-Adresse, um Ihr Konto zu aktivieren. Der Link ist 48 Stunden gültig.',
    action: 'E-Mail-Adresse bestätigen',
    footer: 'Wenn Sie sich nicht registriert haben, können Sie diese E-Mail ignorieren.',
  },
};

const reset: Record<Lang, Template> = {
  en: {
    subject: 'Reset your Snag password',
    greeting: (n) => `Hello ${n},`,
    body: 'someone asked to reset the password of your Snag account. Use the link below to choose a new one. It is valid for one hour and works once.',
    action: 'Choose a new password',
    footer: 'If you did not ask for this, ignore this email: your password stays as it is.',
  },
  de: {
    subject: 'Setzen Sie Ihr Snag-Passwort zurück',
    greeting: (n) => `Hallo ${n},`,
    body: 'es wurde angefordert, das Passwort Ihres Snag-Kontos zurückzusetzen. Über den Link unten wählen Sie ein neues. Er ist eine Stunde gültig und funktioniert einmal.',
    action: 'Neues Passwort wählen',
    footer:
      'Wenn Sie das nicht angefordert haben, ignorieren Sie diese E-Mail: Ihr Passwort bleibt unverändert.',
  },
};

/** To an address without an account that asked for a reset: the same mail traffic as a real reset. */
const noAccount: Record<Lang, Template> = {
  en: {
    subject: 'Reset your Snag password',
    greeting: () => 'Hello,',
    body: 'someone asked to reset the password of a Snag account for this email address, but there is no Snag account for it. Perhaps you signed up with another address. If you want an account, you can create one here.',
    action: 'Create an account',
    footer: 'If you did not ask for this, you can ignore this email.',
  },
  de: {
    subject: 'Setzen Sie Ihr Snag-Passwort zurück',
    greeting: () => 'Hallo,',
    body: 'es wurde angefordert, das Passwort eines Snag-Kontos für diese E-Mail-Adresse zurückzusetzen, aber zu dieser Adresse gibt es kein Snag-Konto. Vielleicht haben Sie sich mit einer anderen Adresse registriert. Wenn Sie ein Konto möchten, können Sie hier eines anlegen.',
    action: 'Konto anlegen',
    footer: 'Wenn Sie das nicht angefordert haben, können Sie diese E-Mail ignorieren.',
  },
};

function render(t: Template, to: string, name: string, link: string): Mail {
  const text = `${t.greeting(name)}\n\n${t.body}\n\n${t.action}: ${link}\n\n${t.footer}\n`;
  const html = mailPage(
    `<p>${escapeHtml(t.greeting(name))}</p><p>${escapeHtml(t.body)}</p>
${mailButton(link, t.action)}
${mailMuted(escapeHtml(link))}${mailMuted(escapeHtml(t.footer))}`,
  );
  return { to, subject: t.subject, text, html };
}

export function confirmationMail(lang: Lang, to: string, name: string, code: string): Mail {
  const link = new URL('/confirm_email', getConfig().APP_ORIGIN);
  link.searchParams.set('code', code);
  link.searchParams.set('username', to);
  return render(confirmation[lang], to, name, link.toString());
}

export function resetMail(lang: Lang, to: string, name: string, code: string): Mail {
  const link = new URL('/reset_verification', getConfig().APP_ORIGIN);
  link.searchParams.set('code', code);
  return render(reset[lang], to, name, link.toString());
}

export function noAccountMail(lang: Lang, to: string): Mail {
  return render(noAccount[lang], to, '', new URL('/registration', getConfig().APP_ORIGIN).toString());
}
