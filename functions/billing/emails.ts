/** Billing mail (issue 12), in English and German: receipt, Business request (client and operators), reminder. */
import { getConfig } from '../core/config';
import { escapeHtml, type Mail, mailButton, mailPage } from '../core/mail';
import { euros } from '../shared/billing';
import type { BusinessRequestInput } from '../shared/countries';
import type { Lang } from '../shared/errors';
import type { PlanName } from '../shared/plans';

const planLabel: Record<Lang, Record<PlanName, string>> = {
  en: { FREE_PLAN: 'Free', BASIC_PLAN: 'Starter', BUSINESS_PLAN: 'Business' },
  de: { FREE_PLAN: 'Free', BASIC_PLAN: 'Starter', BUSINESS_PLAN: 'Business' },
};

const months = (lang: Lang, n: number) =>
  lang === 'de' ? `${n} ${n === 1 ? 'Monat' : 'Monate'}` : `${n} ${n === 1 ? 'month' : 'months'}`;

const day = (lang: Lang, iso: string) =>
  new Date(iso).toLocaleDateString(lang === 'de' ? 'de-DE' : 'en-GB', {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    timeZone: 'UTC',
  });

function render(to: string, subject: string, lines: string[], action?: { label: string; url: string }): Mail {
  const text = `${lines.join('\n\n')}\n${action ? `\n${action.label}: ${action.url}\n` : ''}`;
  const html = mailPage(
    `${lines.map((l) => `<p>${escapeHtml(l).replace(/\n/g, '<br>')}</p>`).join('\n')}
${action ? mailButton(action.url, action.label) : ''}`,
  );
  return { to, subject, text, html };
}

const billingUrl = () => new URL('/profile/billing', getConfig().APP_ORIGIN).toString();

export function receiptMail(
  lang: Lang,
  to: string,
  p: { amount: number; periodMonths: number; plan: PlanName; planExpire: string; date: string },
): Mail {
  const plan = planLabel[lang][p.plan];
  if (lang === 'de')
    return render(
      to,
      `Ihre Zahlung für Snag ${plan}`,
      [
        'Hallo,',
        'vielen Dank für Ihre Zahlung. Hier ist Ihre Quittung:',
        `Tarif: ${plan}\nZeitraum: ${months(lang, p.periodMonths)}\nBetrag: ${euros(p.amount)}\nDatum: ${day(lang, p.date)}\nGültig bis: ${day(lang, p.planExpire)}`,
      ],
      { label: 'Abrechnung öffnen', url: billingUrl() },
    );
  return render(
    to,
    `Your payment for Snag ${plan}`,
    [
      'Hello,',
      'thank you for your payment. Here is your receipt:',
      `Plan: ${plan}\nPeriod: ${months(lang, p.periodMonths)}\nAmount: ${euros(p.amount)}\nDate: ${day(lang, p.date)}\nValid until: ${day(lang, p.planExpire)}`,
    ],
    { label: 'Open billing', url: billingUrl() },
  );
}

const requestSummary = (lang: Lang, r: BusinessRequestInput) =>
  lang === 'de'
    ? `Firma: ${r.company}\nZeitraum: ${months(lang, r.period)}\nZahlungsart: ${r.payment_method === 'card' ? 'Karte' : 'Rechnung'}\nLand: ${r.country} (${r.country_code})\nUSt-IdNr.: ${r.vat || '–'}\nKommentar: ${r.comment || '–'}`
    : `Company: ${r.company}\nPeriod: ${months(lang, r.period)}\nPayment method: ${r.payment_method}\nCountry: ${r.country} (${r.country_code})\nVAT number: ${r.vat || '–'}\nComment: ${r.comment || '–'}`;

export function businessConfirmationMail(lang: Lang, to: string, r: BusinessRequestInput): Mail {
  if (lang === 'de')
    return render(to, 'Ihre Anfrage für Snag Business', [
      'Hallo,',
      'vielen Dank für Ihre Anfrage für den Business-Tarif. Wir melden uns in Kürze bei Ihnen.',
      requestSummary(lang, r),
    ]);
  return render(to, 'Your Snag Business request', [
    'Hello,',
    'thank you for your request for the Business plan. We will get back to you shortly.',
    requestSummary(lang, r),
  ]);
}

export function operatorRequestMail(client: string, r: BusinessRequestInput): Mail {
  return render(getConfig().OPERATOR_EMAIL, `Business plan request from ${client}`, [
    `${client} asked for the Business plan.`,
    requestSummary('en', r),
    `Grant it with: npm run ops -- grant-business ${client} ${r.period}`,
  ]);
}

export function reminderMail(lang: Lang, to: string, plan: PlanName, planExpire: string): Mail {
  const label = planLabel[lang][plan];
  if (lang === 'de')
    return render(
      to,
      `Ihr Snag-Tarif ${label} endet am ${day(lang, planExpire)}`,
      [
        'Hallo,',
        `Ihr Tarif ${label} läuft am ${day(lang, planExpire)} ab. Danach gilt wieder der Free-Tarif: Integrationen, Dateien und Videos sind dann ausgeschaltet, und Projekte über dem Kontingent nehmen keine Meldungen mehr an. Es werden keine Daten gelöscht.`,
      ],
      { label: 'Tarif verlängern', url: billingUrl() },
    );
  return render(
    to,
    `Your Snag ${label} plan ends on ${day(lang, planExpire)}`,
    [
      'Hello,',
      `your ${label} plan runs out on ${day(lang, planExpire)}. After that your account is on the Free plan again: integrations, files and videos are switched off, and projects beyond its allowance stop taking reports. No data is deleted.`,
    ],
    { label: 'Extend your plan', url: billingUrl() },
  );
}
