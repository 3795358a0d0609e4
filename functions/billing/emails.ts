/** Billing mail (issue 12), in English and German: receipt, Business request (client and operators), reminder. */

import { euros } from '#contracts/billing';
import { type BusinessRequestInput, findCountry } from '#contracts/countries';
import type { Lang } from '#contracts/errors';
import type { PlanName } from '#contracts/plans';
import { cleanText } from '#contracts/text';
import { getConfig } from '#runtime/config';
import { escapeHtml, type Mail, mailButton, mailPage } from '#runtime/mail';
import { type Invoice, invoiceSummary, longDate, sellerLines } from './invoice';

const planLabel: Record<Lang, Record<PlanName, string>> = {
  en: { FREE_PLAN: 'Free', BASIC_PLAN: 'Starter', BUSINESS_PLAN: 'Business' },
  de: { FREE_PLAN: 'Free', BASIC_PLAN: 'Starter', BUSINESS_PLAN: 'Business' },
};

const months = (lang: Lang, n: number) =>
  lang === 'de' ? `${n} ${n === 1 ? 'Monat' : 'Monate'}` : `${n} ${n === 1 ? 'month' : 'months'}`;

/**
 * Text a customer typed, for a mail to operators: marked as the customer's words and set apart, so that
 * it cannot pass for part of the mail (a fake "grant it with" line). In the text part every line is quoted
 * with "> ", so even a forged end marker stays inside the quote; in HTML it is escaped, in a bordered
 * block. Control, bidi and other format characters, which can reorder or hide how a line reads, are
 * dropped (the one text rule, contracts/text.ts).
 */
export interface Quoted {
  label: string;
  text: string;
}

function quoteText(q: Quoted): string {
  const body = cleanText(q.text, { multiline: true });
  return `${q.label}\n${body
    .split('\n')
    .map((l) => `> ${l}`)
    .join('\n')}\n(end of the customer's words)`;
}

function quoteHtml(q: Quoted): string {
  const body = escapeHtml(cleanText(q.text, { multiline: true }));
  return `<p style="margin-bottom:4px"><strong>${escapeHtml(q.label)}</strong></p>
<blockquote style="margin:0 0 1em;padding:8px 12px;border-left:4px solid #9ca3af;background:#f3f4f6;white-space:pre-wrap;font-family:ui-monospace,monospace">${body}</blockquote>`;
}

type Block = string | Quoted;

function render(to: string, subject: string, lines: Block[], action?: { label: string; url: string }): Mail {
  const textOf = (b: Block) => (typeof b === 'string' ? b : quoteText(b));
  const htmlOf = (b: Block) =>
    typeof b === 'string' ? `<p>${escapeHtml(b).replace(/\n/g, '<br>')}</p>` : quoteHtml(b);
  const text = `${lines.map(textOf).join('\n\n')}\n${action ? `\n${action.label}: ${action.url}\n` : ''}`;
  const html = mailPage(
    `${lines.map(htmlOf).join('\n')}
${action ? mailButton(action.url, action.label) : ''}`,
  );
  return { to, subject, text, html };
}

const billingUrl = () => new URL('/profile/billing', getConfig().APP_ORIGIN).toString();

const invoiceUrl = (number: string, lang: Lang) =>
  new URL(
    `/api/client/invoice/${number}${lang === 'de' ? '?lng=de' : ''}`,
    getConfig().APP_ORIGIN,
  ).toString();

/** The receipt of a card payment, with its invoice's number, seller, VAT split and download link. */
export function receiptMail(
  lang: Lang,
  to: string,
  p: { amount: number; periodMonths: number; plan: PlanName; planExpire: string; date: string },
  invoice: Invoice,
): Mail {
  const plan = planLabel[lang][p.plan];
  const figures = invoiceSummary(lang, invoice).join('\n');
  const seller = sellerLines(lang, invoice.seller).join('\n');
  if (lang === 'de')
    return render(
      to,
      `Ihre Zahlung für Snag ${plan} (Rechnung ${invoice.number})`,
      [
        'Hallo,',
        'vielen Dank für Ihre Zahlung. Hier ist Ihre Quittung:',
        `Tarif: ${plan}\nZeitraum: ${months(lang, p.periodMonths)}\nBetrag: ${euros(p.amount)}\nDatum: ${longDate(lang, p.date)}\nGültig bis: ${longDate(lang, p.planExpire)}`,
        figures,
        `Verkäufer:\n${seller}`,
      ],
      { label: 'Rechnung herunterladen', url: invoiceUrl(invoice.number, lang) },
    );
  return render(
    to,
    `Your payment for Snag ${plan} (invoice ${invoice.number})`,
    [
      'Hello,',
      'thank you for your payment. Here is your receipt:',
      `Plan: ${plan}\nPeriod: ${months(lang, p.periodMonths)}\nAmount: ${euros(p.amount)}\nDate: ${longDate(lang, p.date)}\nValid until: ${longDate(lang, p.planExpire)}`,
      figures,
      `Seller:\n${seller}`,
    ],
    { label: 'Download the invoice', url: invoiceUrl(invoice.number, lang) },
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

/**
 * The operators' copy of a Business request. Only what Snag itself vouches for is plain text: the
 * account's address, the validated period, method and country code, and the grant command built from
 * them (before any customer text). Company, VAT number and comment are the customer's words, quoted.
 */
export function operatorRequestMail(client: string, r: BusinessRequestInput): Mail {
  const country = findCountry(r.country_code);
  return render(getConfig().OPERATOR_EMAIL, `Business plan request from ${client}`, [
    `${client} asked for the Business plan.`,
    `Period: ${months('en', r.period)}\nPayment method: ${r.payment_method}\nCountry: ${country?.label_en ?? r.country_code} (${r.country_code})`,
    `To grant it after checking the request: npm run ops -- grant-business ${client} ${r.period}`,
    {
      label: "The customer's words (as typed by the customer; not instructions from Snag):",
      text: `Company: ${r.company}\nVAT number: ${r.vat || '–'}\nComment:\n${r.comment || '–'}`,
    },
  ]);
}

export function reminderMail(lang: Lang, to: string, plan: PlanName, planExpire: string): Mail {
  const label = planLabel[lang][plan];
  if (lang === 'de')
    return render(
      to,
      `Ihr Snag-Tarif ${label} endet am ${longDate(lang, planExpire)}`,
      [
        'Hallo,',
        `Ihr Tarif ${label} läuft am ${longDate(lang, planExpire)} ab. Danach gilt wieder der Free-Tarif: Integrationen, Dateien und Videos sind dann ausgeschaltet, und Projekte über dem Kontingent nehmen keine Meldungen mehr an. Es werden keine Daten gelöscht.`,
      ],
      { label: 'Tarif verlängern', url: billingUrl() },
    );
  return render(
    to,
    `Your Snag ${label} plan ends on ${longDate(lang, planExpire)}`,
    [
      'Hello,',
      `your ${label} plan runs out on ${longDate(lang, planExpire)}. After that your account is on the Free plan again: integrations, files and videos are switched off, and projects beyond its allowance stop taking reports. No data is deleted.`,
    ],
    { label: 'Extend your plan', url: billingUrl() },
  );
}
