/**
 * Invoices (issue 19): what an invoice says and how it reads. Pure: the numbers come from
 * `store.ts` (one gap-free sequence per seller), the seller from configuration, the buyer from the
 * profile at the moment of payment. An invoice keeps what it was issued with; nothing here reads it again.
 *
 * The VAT rule (docs/decisions.md "Invoices"): Snag's prices are what the buyer pays. A business in another
 * EU member state than the seller's, with a valid VAT number, gets a reverse-charge invoice (no VAT, the
 * buyer accounts for it, Art. 196 of Directive 2006/112/EC); everyone else pays the seller's VAT rate,
 * included in the price.
 */

import { findCountry, isValidVat, normaliseVat } from '#contracts/countries';
import type { Lang } from '#contracts/errors';
import type { PlanName } from '#contracts/plans';
import { escapeHtml } from '#runtime/mail';

export interface Seller {
  name: string;
  /** Printed lines of the postal address. */
  address: string[];
  country: string;
  vatId: string;
  /** Percent, included in the price where no reverse charge applies. */
  vatRate: number;
}

export interface Buyer {
  email: string;
  company: string;
  country: string;
  vat: string;
}

export interface Invoice {
  number: string;
  /** The paying OWNER; `teamId` the team (absent on invoices made before teams: `userId`'s, T2). */
  userId: string;
  teamId?: string;
  issuedAt: string;
  seller: Seller;
  buyer: Buyer;
  plan: PlanName;
  periodMonths: number;
  /** The period the payment bought (ISO dates): the date of supply. */
  serviceFrom: string;
  serviceTo: string;
  currency: 'eur';
  /** Cents: what was paid, and its split into net and VAT. */
  total: number;
  net: number;
  vat: number;
  vatRate: number;
  reverseCharge: boolean;
  lang: Lang;
  stripeCheckoutId?: string;
}

/** The invoice number: the seller's prefix and the sequence number, six digits at least. */
export const formatInvoiceNumber = (prefix: string, n: number) => `${prefix}-${String(n).padStart(6, '0')}`;
/** What an invoice number looks like; anything else cannot name one (404 without a read). */
export const invoiceNumberPattern = /^[A-Z0-9]{1,12}-\d{6,9}$/;

/** Reverse charge: an EU business (valid VAT number) in another member state than the seller's. */
export function isReverseCharge(seller: Pick<Seller, 'country'>, buyer: Pick<Buyer, 'country' | 'vat'>) {
  const country = findCountry(buyer.country);
  if (!country?.isVatRequired || country.value === seller.country.toUpperCase()) return false;
  return normaliseVat(buyer.vat) !== '' && isValidVat(country.value, buyer.vat);
}

/** Splits a paid total into net and VAT by the rule above. */
export function vatSplit(total: number, seller: Pick<Seller, 'country' | 'vatRate'>, buyer: Buyer) {
  const reverseCharge = isReverseCharge(seller, buyer);
  const vatRate = reverseCharge ? 0 : seller.vatRate;
  const net = Math.round((total * 100) / (100 + vatRate));
  return { reverseCharge, vatRate, net, vat: total - net };
}

const texts = {
  en: {
    invoice: 'Invoice',
    number: 'Invoice number',
    date: 'Invoice date',
    period: 'Service period',
    seller: 'From',
    buyer: 'Bill to',
    vatId: 'VAT ID',
    description: 'Description',
    amount: 'Amount',
    item: (plan: string, months: number) => `Snag ${plan}, ${months} ${months === 1 ? 'month' : 'months'}`,
    net: 'Net',
    vat: (rate: number) => `VAT ${rate} %`,
    total: 'Total',
    paid: 'Paid by card.',
    reverseCharge:
      'Reverse charge: VAT is to be accounted for by the recipient (Art. 196 Council Directive 2006/112/EC).',
  },
  de: {
    invoice: 'Rechnung',
    number: 'Rechnungsnummer',
    date: 'Rechnungsdatum',
    period: 'Leistungszeitraum',
    seller: 'Von',
    buyer: 'Rechnungsempfänger',
    vatId: 'USt-IdNr.',
    description: 'Beschreibung',
    amount: 'Betrag',
    item: (plan: string, months: number) => `Snag ${plan}, ${months} ${months === 1 ? 'Monat' : 'Monate'}`,
    net: 'Netto',
    vat: (rate: number) => `USt. ${rate} %`,
    total: 'Gesamt',
    paid: 'Bezahlt per Karte.',
    reverseCharge:
      'Steuerschuldnerschaft des Leistungsempfängers (Reverse Charge, Art. 196 MwSt-Systemrichtlinie 2006/112/EG).',
  },
} as const;

const planLabel: Record<PlanName, string> = {
  FREE_PLAN: 'Free',
  BASIC_PLAN: 'Starter',
  BUSINESS_PLAN: 'Business',
};

export const invoiceMoney = (lang: Lang, cents: number) =>
  new Intl.NumberFormat(lang === 'de' ? 'de-DE' : 'en-IE', { style: 'currency', currency: 'EUR' }).format(
    cents / 100,
  );

/** A date as the billing mails and invoices write it ("24 November 2026", "24. November 2026"). */
export const longDate = (lang: Lang, iso: string) =>
  new Date(iso).toLocaleDateString(lang === 'de' ? 'de-DE' : 'en-GB', {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    timeZone: 'UTC',
  });

const countryName = (lang: Lang, code: string) => {
  const c = findCountry(code);
  return c ? (lang === 'de' ? c.label_de : c.label_en) : code;
};

/** The lines an invoice's figures read as, for the receipt mail and the printable page alike. */
export function invoiceSummary(lang: Lang, inv: Invoice): string[] {
  const t = texts[lang];
  const lines = [
    `${t.number}: ${inv.number}`,
    `${t.date}: ${longDate(lang, inv.issuedAt)}`,
    `${t.period}: ${longDate(lang, inv.serviceFrom)} – ${longDate(lang, inv.serviceTo)}`,
    `${t.net}: ${invoiceMoney(lang, inv.net)}`,
    `${t.vat(inv.vatRate)}: ${invoiceMoney(lang, inv.vat)}`,
    `${t.total}: ${invoiceMoney(lang, inv.total)}`,
  ];
  if (inv.reverseCharge) lines.push(t.reverseCharge);
  return lines;
}

/** The seller as the receipt prints it: name, address, VAT ID. */
export function sellerLines(lang: Lang, seller: Seller): string[] {
  return [seller.name, ...seller.address, `${texts[lang].vatId}: ${seller.vatId}`];
}

/**
 * The printable invoice: a self-contained page with no script and no outside resource (the route sends
 * a CSP that forbids both). Every value is escaped: company names and VAT numbers are the client's text.
 */
export function invoiceHtml(lang: Lang, inv: Invoice): string {
  const t = texts[lang];
  const e = escapeHtml;
  const block = (lines: string[]) => lines.filter(Boolean).map(e).join('<br>');
  const buyer = [
    inv.buyer.company,
    inv.buyer.email,
    inv.buyer.country ? countryName(lang, inv.buyer.country) : '',
    inv.buyer.vat ? `${t.vatId}: ${inv.buyer.vat}` : '',
  ];
  return `<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${e(`${t.invoice} ${inv.number}`)}</title>
<style>
body{font-family:system-ui,sans-serif;color:#1f2937;max-width:780px;margin:2rem auto;padding:0 1rem;line-height:1.45}
h1{font-size:1.6rem;margin:0 0 1rem}
.parties{display:flex;flex-wrap:wrap;gap:2rem;justify-content:space-between;margin:1.5rem 0}
.parties h2,.meta dt{font-size:.8rem;text-transform:uppercase;letter-spacing:.04em;color:#4b5563;margin:0 0 .25rem}
.meta{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;margin:0}
.meta dd{margin:0}
table{width:100%;border-collapse:collapse;margin:1.5rem 0}
th,td{padding:.5rem;border-bottom:1px solid #d1d5db;text-align:left}
td.n,th.n{text-align:right;white-space:nowrap}
tfoot td{border:0}
tfoot tr.total td{font-weight:700;border-top:2px solid #1f2937}
@media print{body{margin:0}}
</style></head>
<body>
<h1>${e(t.invoice)}</h1>
<dl class="meta">
<dt>${e(t.number)}</dt><dd data-field="number">${e(inv.number)}</dd>
<dt>${e(t.date)}</dt><dd>${e(longDate(lang, inv.issuedAt))}</dd>
<dt>${e(t.period)}</dt><dd>${e(`${longDate(lang, inv.serviceFrom)} – ${longDate(lang, inv.serviceTo)}`)}</dd>
</dl>
<div class="parties">
<section><h2>${e(t.seller)}</h2><p data-field="seller">${block(sellerLines(lang, inv.seller))}</p></section>
<section><h2>${e(t.buyer)}</h2><p data-field="buyer">${block(buyer)}</p></section>
</div>
<table>
<thead><tr><th>${e(t.description)}</th><th class="n">${e(t.amount)}</th></tr></thead>
<tbody><tr><td>${e(t.item(planLabel[inv.plan], inv.periodMonths))}</td><td class="n">${e(invoiceMoney(lang, inv.net))}</td></tr></tbody>
<tfoot>
<tr><td class="n">${e(t.net)}</td><td class="n">${e(invoiceMoney(lang, inv.net))}</td></tr>
<tr><td class="n">${e(t.vat(inv.vatRate))}</td><td class="n" data-field="vat">${e(invoiceMoney(lang, inv.vat))}</td></tr>
<tr class="total"><td class="n">${e(t.total)}</td><td class="n" data-field="total">${e(invoiceMoney(lang, inv.total))}</td></tr>
</tfoot>
</table>
${inv.reverseCharge ? `<p data-field="reverse-charge"><strong>${e(t.reverseCharge)}</strong></p>` : ''}
<p>${e(t.paid)}</p>
</body></html>`;
}
