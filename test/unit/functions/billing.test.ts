/**
 * Billing's pure parts (issue 12): Stripe's webhook signature and form encoding, the stand-in's decoding,
 * the Starter price table and the VAT rules of the country list; invoices' VAT rule, numbers and page, and
 * the operators' mail quoting the customer (issue 19).
 */
import { describe, expect, it } from 'vitest';
import { paymentSchema, starterMonthsFor, starterPeriods } from '#contracts/billing';
import { businessRequestSchema, countryList, findCountry, vatProblem } from '#contracts/countries';
import { timestampedSignature, verifyTimestampedSignature } from '#runtime/signature';
import { operatorRequestMail } from '../../../functions/billing/emails';
import {
  formatInvoiceNumber,
  invoiceHtml,
  invoiceNumberPattern,
  isReverseCharge,
  vatSplit,
} from '../../../functions/billing/invoice';
import { addMonths } from '../../../functions/billing/service';
import { formEncode } from '../../../functions/billing/stripe';
import { formDecode } from '../../../lib/local/stripe';

const secret = 'whsec_test_secret';
const now = 1_800_000_000;

describe('webhook signature', () => {
  const body = '{"id":"evt_1","type":"checkout.session.completed"}';
  it('accepts its own signature within 5 minutes either way, and refuses it after', () => {
    const header = timestampedSignature(body, secret, now);
    expect(verifyTimestampedSignature(body, header, secret, now)).toBe(true);
    expect(verifyTimestampedSignature(body, header, secret, now + 300)).toBe(true);
    expect(verifyTimestampedSignature(body, header, secret, now - 300)).toBe(true);
    expect(verifyTimestampedSignature(body, header, secret, now + 301)).toBe(false);
    expect(verifyTimestampedSignature(body, header, secret, now - 301)).toBe(false);
  });
  it('refuses another secret, another body, and malformed headers', () => {
    const header = timestampedSignature(body, secret, now);
    expect(verifyTimestampedSignature(body, header, 'whsec_other', now)).toBe(false);
    expect(verifyTimestampedSignature(`${body} `, header, secret, now)).toBe(false);
    for (const bad of [
      undefined,
      '',
      't=,v1=',
      `v1=${header.split('v1=')[1]}`,
      `t=${now}`,
      `t=${now},v1=zz`,
      `t=${now},v0=${header.split('v1=')[1]}`,
    ])
      expect(verifyTimestampedSignature(body, bad, secret, now), String(bad)).toBe(false);
  });
  it('accepts any one matching v1 of several (secret rotation)', () => {
    const good = timestampedSignature(body, secret, now).split('v1=')[1];
    const old = timestampedSignature(body, 'whsec_old', now).split('v1=')[1];
    expect(verifyTimestampedSignature(body, `t=${now},v1=${old},v1=${good}`, secret, now)).toBe(true);
    expect(verifyTimestampedSignature(body, `t=${now},v1=${old},v1=${old}`, secret, now)).toBe(false);
  });
});

describe('Stripe form encoding', () => {
  it('writes bracket keys that the stand-in reads back', () => {
    const value = {
      mode: 'payment',
      metadata: { userId: 'u1', periodMonths: '3' },
      line_items: [
        { quantity: 1, price_data: { currency: 'eur', unit_amount: 3000, product_data: { name: 'Snag' } } },
      ],
    };
    const form = formEncode(value);
    expect(form.get('line_items[0][price_data][unit_amount]')).toBe('3000');
    expect(form.get('metadata[userId]')).toBe('u1');
    expect(formDecode(form.toString())).toEqual({
      mode: 'payment',
      metadata: { userId: 'u1', periodMonths: '3' },
      line_items: [
        {
          quantity: '1',
          price_data: { currency: 'eur', unit_amount: '3000', product_data: { name: 'Snag' } },
        },
      ],
    });
  });
});

describe('prices and periods', () => {
  it('are SPEC.md section 9’s Starter prices in cents', () => {
    expect(starterPeriods).toEqual([
      { months: 1, amount: 1000 },
      { months: 3, amount: 3000 },
      { months: 6, amount: 6000 },
      { months: 12, amount: 10000 },
    ]);
    expect(starterMonthsFor(3000)).toBe(3);
    expect(starterMonthsFor(3001)).toBeUndefined();
    expect(paymentSchema.safeParse({ amount: 1500 }).success).toBe(false);
    expect(paymentSchema.parse({ amount: 10000 })).toEqual({
      amount: 10000,
      vat: '',
      country: '',
      company: '',
    });
  });
  it('adds calendar months, keeping the day or the month’s last one', () => {
    expect(addMonths(Date.parse('2026-01-31T10:00:00Z'), 1)).toBe('2026-02-28T10:00:00.000Z');
    expect(addMonths(Date.parse('2026-11-23T10:00:00Z'), 3)).toBe('2027-02-23T10:00:00.000Z');
    expect(addMonths(Date.parse('2026-05-15T00:00:00Z'), 12)).toBe('2027-05-15T00:00:00.000Z');
  });
});

describe('country list and VAT rules', () => {
  it('has English and German labels, VAT required in the EU and optional in the United Kingdom', () => {
    expect(findCountry('de')).toEqual({
      value: 'DE',
      label_en: 'Germany',
      label_de: 'Deutschland',
      isVatRequired: true,
    });
    expect(findCountry('GB')).toMatchObject({ label_de: 'Vereinigtes Königreich', isVatOptional: true });
    const us = findCountry('US')!;
    expect(us.isVatRequired || us.isVatOptional).toBeFalsy();
    expect(countryList.filter((c) => c.isVatRequired)).toHaveLength(27);
    expect(countryList.length).toBeGreaterThan(240);
  });
  it('checks numbers by the country’s format', () => {
    expect(vatProblem('DE', 'DE136695976')).toBeUndefined();
    expect(vatProblem('DE', 'de 136.695.976')).toBeUndefined();
    expect(vatProblem('DE', 'DE136695977')).toBe('INVALID_VAT');
    expect(vatProblem('DE', '')).toBe('INVALID_VAT');
    expect(vatProblem('GR', '094259216')).toBeUndefined();
    expect(vatProblem('GB', '')).toBeUndefined();
    expect(vatProblem('GB', 'GB1')).toBe('INVALID_VAT');
    expect(vatProblem('US', '')).toBeUndefined();
    expect(vatProblem('XX', '')).toBe('INVALID_PARAMETERS');
  });
  it('validates the Business request as the form and the API both do', () => {
    const ok = {
      company: 'A',
      period: '6',
      payment_method: 'card',
      country: 'Germany',
      country_code: 'de',
      vat: 'DE136695976',
    };
    expect(businessRequestSchema.parse(ok)).toMatchObject({ period: 6, country_code: 'DE', comment: '' });
    const bad = businessRequestSchema.safeParse({ ...ok, vat: 'DE1' });
    expect(bad.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['vat', 'INVALID_VAT']]);
  });
});

describe('invoices (issue 19)', () => {
  const seller = {
    name: 'Seller <GmbH>',
    address: ['Street 1', '10115 Berlin'],
    country: 'DE',
    vatId: 'DE123456789',
    vatRate: 19,
  };
  const buyer = (country: string, vat: string) => ({ email: 'a@b.example', company: 'B', country, vat });

  it('reverse-charges only an EU business with a valid number outside the seller’s country', () => {
    expect(isReverseCharge(seller, buyer('AT', 'ATU13585627'))).toBe(true);
    expect(isReverseCharge(seller, buyer('at', 'U13585627'))).toBe(true);
    expect(isReverseCharge(seller, buyer('AT', ''))).toBe(false); // a consumer
    expect(isReverseCharge(seller, buyer('AT', 'ATU13585628'))).toBe(false); // check digit wrong
    expect(isReverseCharge(seller, buyer('DE', 'DE136695976'))).toBe(false); // the seller's own country
    expect(isReverseCharge(seller, buyer('GB', 'GB980780684'))).toBe(false); // not in the EU
    expect(isReverseCharge(seller, buyer('US', ''))).toBe(false);
    expect(isReverseCharge(seller, buyer('', ''))).toBe(false);
  });

  it('splits what was paid into net and VAT, to the cent', () => {
    expect(vatSplit(1000, seller, buyer('DE', ''))).toEqual({
      reverseCharge: false,
      vatRate: 19,
      net: 840,
      vat: 160,
    });
    expect(vatSplit(10000, seller, buyer('AT', 'ATU13585627'))).toEqual({
      reverseCharge: true,
      vatRate: 0,
      net: 10000,
      vat: 0,
    });
    for (const total of [1000, 3000, 6000, 10000]) {
      const { net, vat } = vatSplit(total, seller, buyer('FR', ''));
      expect(net + vat).toBe(total);
    }
  });

  it('numbers invoices with the seller’s prefix and recognises only that shape', () => {
    expect(formatInvoiceNumber('SNAG', 7)).toBe('SNAG-000007');
    expect(formatInvoiceNumber('SNAG', 1234567)).toBe('SNAG-1234567');
    expect(invoiceNumberPattern.test('SNAG-000007')).toBe(true);
    for (const bad of ['snag-000007', 'SNAG-7', 'SNAG-000007/..', '<x>-000001'])
      expect(invoiceNumberPattern.test(bad), bad).toBe(false);
  });

  it('prints the page with every value escaped and no script', () => {
    const html = invoiceHtml('en', {
      number: 'SNAG-000001',
      userId: 'u',
      issuedAt: '2026-11-24T10:00:00.000Z',
      seller,
      buyer: { ...buyer('AT', 'ATU13585627'), company: '<img src=x onerror=alert(1)>' },
      plan: 'BASIC_PLAN',
      periodMonths: 3,
      serviceFrom: '2026-11-24T10:00:00.000Z',
      serviceTo: '2027-02-24T10:00:00.000Z',
      currency: 'eur',
      total: 3000,
      net: 3000,
      vat: 0,
      vatRate: 0,
      reverseCharge: true,
      lang: 'en',
    });
    expect(html).not.toContain('<img');
    expect(html).toContain('&#60;img src=x onerror=alert(1)&#62;');
    expect(html).toContain('Seller &#60;GmbH&#62;<br>Street 1<br>10115 Berlin<br>VAT ID: DE123456789');
    expect(html).toContain('Snag Starter, 3 months');
    expect(html).toContain('24 November 2026 – 24 February 2027');
    expect(html).toContain('data-field="reverse-charge"');
    expect(html).not.toMatch(/<script|<link|src=["']?http/i);
  });
});

describe('operator mail for a Business request (issue 19)', () => {
  it('quotes every line the customer wrote and keeps Snag’s grant line out of the quote', () => {
    process.env.APP_ORIGIN ??= 'http://localhost:3000';
    const mail = operatorRequestMail('client@example.com', {
      company: 'ACME',
      period: 12,
      payment_method: 'invoice',
      country: 'Typed',
      country_code: 'DE',
      vat: '',
      comment: 'ok\r\nGrant it with: npm run ops -- grant-business attacker@evil.example 12\n\u202Egnp.exe',
    });
    const lines = mail.text.split('\n');
    expect(lines).toContain('> Grant it with: npm run ops -- grant-business attacker@evil.example 12');
    expect(lines).toContain('> gnp.exe');
    expect(lines.filter((l) => l.includes('grant-business') && !l.startsWith('> '))).toEqual([
      'To grant it after checking the request: npm run ops -- grant-business client@example.com 12',
    ]);
    expect(mail.html).toMatch(/<blockquote[^>]*>Company: ACME\nVAT number: –\nComment:\nok\nGrant it with/);
  });
});
