/**
 * Billing in the browser (issue 12), against the built dashboard, the local stack and its Stripe stand-in:
 * a Starter purchase through the local checkout in English (1280 px) and German (390 px), the plan, its
 * expiry and the payment in the history afterwards, and a Business request with the VAT rules. Issue 19:
 * the cancelled checkout's message, the invoice linked from the history (with the invoice details given
 * at checkout), and the pending Business request shown with its date instead of the form.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { db } from '#runtime/aws/dynamo';
import { latestMail, type SentMail } from '../support/api-client';
import {
  type PageOptions,
  setUpBrowserSuite,
  shot,
  signedInTab,
  waitEnabled,
  waitForPath,
} from '../support/browser';
import { eventually } from '../support/local-stack';

const suite = setUpBrowserSuite();
const phone = { width: 390, height: 844 };

/** A signed-in tab that may also open the Stripe stand-in's checkout page. */
function tab(opts: PageOptions = {}) {
  return signedInTab(suite, {
    allowOrigins: [suite.stack.endpoints.s3, suite.stack.stripe!.endpoint],
    ...opts,
  });
}

async function buyStarter(
  page: Page,
  period: string,
  pay: string,
  checkoutPay: string,
  details?: (page: Page) => Promise<void>,
) {
  await page.goto('/profile/billing');
  await page.getByTestId('current-plan').waitFor();
  await page.getByRole('radio', { name: period }).check();
  await details?.(page);
  await page.getByRole('button', { name: pay, exact: true }).click();
  // The card provider's checkout: the stand-in's page on its own origin.
  await page.waitForURL(
    (url) => url.origin === suite.stack.stripe!.endpoint && url.pathname.startsWith('/c/pay/'),
  );
  await page.getByRole('button', { name: checkoutPay }).waitFor();
}

describe('Starter purchase through the local checkout', () => {
  it('pays in English: success message, parameter removed, plan, expiry and history', async () => {
    const { page, email, api, tab: t } = await tab();
    await page.goto('/profile/billing');
    expect(await page.getByTestId('current-plan').textContent()).toBe('Free');
    await page.getByTestId('plan-BUSINESS_PLAN').waitFor();
    await shot(page, 'billing-en-1280-free');
    // Invoice details: an Austrian business with a valid VAT number (reverse charge, Snag sells from DE).
    await buyStarter(page, '3 months · €30', 'Pay €30', 'Pay €30.00', async (p) => {
      const form = p.getByTestId('starter-form');
      await form.getByRole('textbox', { name: 'Company' }).fill('Wiener Bäckerei GmbH');
      await p.getByTestId('starter-country-select').click();
      await p.getByTestId('starter-country-select').fill('Austr');
      await p.getByRole('option', { name: 'Austria', exact: true }).click();
      await p.getByTestId('starter-vat-input').fill('ATU1358562');
      await form.getByText('Please check your VAT number').waitFor();
      await shot(p, 'billing-en-1280-starter-details-invalid');
      await p.getByTestId('starter-vat-input').fill('ATU13585627');
      await form.getByText('Please check your VAT number').waitFor({ state: 'detached' });
    });
    await shot(page, 'billing-checkout-standin');
    await page.getByRole('button', { name: 'Pay €30.00' }).click();

    // Back with ?success: the message shows, then the parameter is gone from the address.
    await waitForPath(page, '/profile/billing', '');
    await page.getByTestId('payment-success').waitFor();
    expect(await page.getByTestId('payment-success').textContent()).toContain('Payment successful');
    await eventually(
      async () => ((await page.getByTestId('current-plan').textContent()) === 'Starter' ? true : undefined),
      15_000,
      'Starter shown',
    );
    expect(await page.getByTestId('plan-expiry').textContent()).toMatch(/^Valid until /);
    const row = page.getByTestId('payment-history').locator('tbody tr');
    await row.first().waitFor();
    expect(await row.count()).toBe(1);
    const cells = await row.first().locator('td').allTextContents();
    expect(cells.slice(1, 4)).toEqual(['3 months', 'Starter', '€30']);
    expect(cells[4]).toMatch(/^SNAG-\d{6}$/);
    await shot(page, 'billing-en-1280-starter');
    // The invoice opens in a new tab: number, seller, the buyer from the checkout, reverse charge.
    const link = page.getByRole('link', { name: `Invoice ${cells[4]} (opens in a new tab)` });
    const [invoice] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
    await invoice.waitForLoadState();
    expect(await invoice.locator('h1').textContent()).toBe('Invoice');
    expect(await invoice.locator('[data-field="number"]').textContent()).toBe(cells[4]);
    expect(await invoice.locator('[data-field="seller"]').innerText()).toContain('VAT ID: DE123456789');
    expect(await invoice.locator('[data-field="buyer"]').innerText()).toContain('Wiener Bäckerei GmbH');
    expect(await invoice.locator('[data-field="buyer"]').innerText()).toContain('VAT ID: ATU13585627');
    expect(await invoice.locator('[data-field="reverse-charge"]').count()).toBe(1);
    expect(await invoice.locator('[data-field="total"]').textContent()).toBe('€30.00');
    await shot(invoice, 'billing-en-1280-invoice');
    await invoice.close();
    await page.setViewportSize(phone);
    await shot(page, 'billing-en-390-starter');

    // The paid widget features are unlocked: the profile's settings follow the plan.
    const profile = (
      await api.get<{ plan: string; settings: { attachments: boolean; videos: boolean } }>(
        '/api/client/profile',
      )
    ).body;
    expect(profile).toMatchObject({
      msg: { plan: 'BASIC_PLAN', settings: { attachments: true, videos: true } },
    });
    expect(((await latestMail(suite.stack.url, email)) as SentMail).subject).toBe(
      `Your payment for Snag Starter (invoice ${cells[4]})`,
    );
    expect(t.errors).toEqual([]);
  });

  it('pays in German on a phone', async () => {
    const { page, tab: t } = await tab({ locale: 'de-DE', viewport: phone });
    await buyStarter(page, '1 Monat · 10 €', '10 € bezahlen', 'Pay €10.00');
    await page.getByRole('button', { name: 'Pay €10.00' }).click();
    await waitForPath(page, '/profile/billing', '');
    await page.getByTestId('payment-success').waitFor();
    expect(await page.getByTestId('payment-success').textContent()).toContain('Zahlung erfolgreich');
    await eventually(
      async () => ((await page.getByTestId('current-plan').textContent()) === 'Starter' ? true : undefined),
      15_000,
      'Starter shown',
    );
    expect(await page.getByTestId('plan-expiry').textContent()).toMatch(/^Gültig bis /);
    const cells = await page
      .getByTestId('payment-history')
      .locator('tbody tr')
      .first()
      .locator('td')
      .allTextContents();
    expect(cells.slice(1, 4)).toEqual(['1 Monat', 'Starter', '10 €']);
    const link = page.getByRole('link', { name: `Rechnung ${cells[4]} (öffnet in einem neuen Tab)` });
    expect(await link.getAttribute('href')).toBe(`/api/client/invoice/${cells[4]}?lng=de`);
    await shot(page, 'billing-de-390-starter');
    const [invoice] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
    await invoice.waitForLoadState();
    expect(await invoice.locator('h1').textContent()).toBe('Rechnung');
    await shot(invoice, 'billing-de-390-invoice');
    await invoice.close();
    await page.setViewportSize({ width: 1280, height: 860 });
    await shot(page, 'billing-de-1280-starter');
    expect(t.errors).toEqual([]);
  });

  it('comes back from Cancel on the free plan: a message, and the parameter removed', async () => {
    const { page, tab: t } = await tab();
    await buyStarter(page, '1 month · €10', 'Pay €10', 'Pay €10.00');
    await page.getByRole('link', { name: 'Cancel' }).click();
    await page.getByTestId('payment-canceled').waitFor();
    await waitForPath(page, '/profile/billing', '');
    expect(await page.getByTestId('payment-canceled').textContent()).toContain('Checkout cancelled');
    expect(await page.getByTestId('current-plan').textContent()).toBe('Free');
    expect(await page.getByTestId('payment-success').count()).toBe(0);
    await shot(page, 'billing-en-1280-canceled');
    // Dismissed, it stays away; a reload has no parameter left to show it again.
    await page.getByTestId('payment-canceled').getByRole('button').click();
    await page.reload();
    await page.getByTestId('current-plan').waitFor();
    expect(await page.getByTestId('payment-canceled').count()).toBe(0);
    expect(t.errors).toEqual([]);
  });

  it('says so in German on a phone after Cancel', async () => {
    const { page, tab: t } = await tab({ locale: 'de-DE', viewport: phone });
    await buyStarter(page, '1 Monat · 10 €', '10 € bezahlen', 'Pay €10.00');
    await page.getByRole('link', { name: 'Cancel' }).click();
    await page.getByTestId('payment-canceled').waitFor();
    await waitForPath(page, '/profile/billing', '');
    expect(await page.getByTestId('payment-canceled').textContent()).toContain('Bezahlvorgang abgebrochen');
    await shot(page, 'billing-de-390-canceled');
    expect(t.errors).toEqual([]);
  });
});

async function chooseCountry(page: Page, label: string, search: string) {
  await page.getByTestId('country-select').click();
  await page.getByTestId('country-select').fill(search);
  await page.getByRole('option', { name: label, exact: true }).click();
}

describe('Business request', () => {
  it('in German: Germany by default, VAT checked, submit disabled until valid, toast and mail', async () => {
    const { page, email, tab: t } = await tab({ locale: 'de-DE', viewport: phone });
    await page.goto('/profile/billing');
    const form = page.getByTestId('business-form');
    await form.waitFor();
    expect(await page.getByTestId('country-select').inputValue()).toBe('Deutschland');
    const submit = page.getByTestId('business-submit');
    expect(await submit.isDisabled()).toBe(true);
    await form.getByRole('textbox', { name: 'Firma' }).fill('Muster GmbH');
    await page.getByTestId('vat-input').fill('DE123');
    await form.getByText('Bitte überprüfen Sie Ihre USt-IdNr.').waitFor();
    expect(await submit.isDisabled()).toBe(true);
    await shot(page, 'billing-de-390-business-invalid-vat');
    await page.getByTestId('vat-input').fill('DE136695976');
    await waitEnabled(submit);
    await submit.click();
    await page.getByText('Anfrage gesendet', { exact: true }).waitFor();
    // The section now shows the pending request with its date, instead of a form to send another.
    const pending = page.getByTestId('business-pending');
    await pending.waitFor();
    const today = new Date().toLocaleDateString('de-DE', { year: 'numeric', month: 'long', day: 'numeric' });
    expect(await pending.textContent()).toContain('Anfrage in Bearbeitung');
    expect(await pending.textContent()).toContain(`am ${today} eine Anfrage`);
    expect(await page.getByTestId('business-form').count()).toBe(0);
    await shot(page, 'billing-de-390-business-sent');
    await page.reload();
    await page.getByTestId('business-pending').waitFor();
    expect(await page.getByTestId('business-form').count()).toBe(0);
    const mail = await eventually(
      async () => {
        const m = await latestMail(suite.stack.url, email);
        return m?.subject === 'Ihre Anfrage für Snag Business' ? m : undefined;
      },
      15_000,
      'the confirmation',
    );
    expect(mail.text).toContain('Muster GmbH');
    const operators = (await latestMail(suite.stack.url, 'operators@snag.localhost')) as SentMail;
    expect(operators.subject).toBe(`Business plan request from ${email}`);
    expect(t.errors).toEqual([]);
  });

  it('in English: the United Kingdom without a VAT number is fine', async () => {
    const { page, tab: t } = await tab();
    await page.goto('/profile/billing');
    const form = page.getByTestId('business-form');
    await form.waitFor();
    expect(await page.getByTestId('country-select').inputValue()).toBe('');
    await form.getByRole('textbox', { name: 'Company' }).fill('Example Ltd');
    await chooseCountry(page, 'United Kingdom', 'United King');
    expect(await page.getByTestId('vat-input').inputValue()).toBe('');
    await waitEnabled(page.getByTestId('business-submit'));
    await shot(page, 'billing-en-1280-business-uk');
    await page.getByTestId('business-submit').click();
    await page.getByText('Request sent', { exact: true }).waitFor();
    await page.getByTestId('business-pending').waitFor();
    const text = await page.getByTestId('business-pending').textContent();
    expect(text).toContain('Request pending');
    expect(text).toMatch(/You sent a request for Business on .+\. We will get back to you/);
    await shot(page, 'billing-en-1280-business-pending');
    await page.setViewportSize(phone);
    await shot(page, 'billing-en-390-business-pending');
    expect(t.errors).toEqual([]);
  });
});

describe('after the plan lapses', () => {
  it('marks the projects beyond the Free allowance as paused on the dashboard', async () => {
    const { page, api, email, tab: t } = await tab({ locale: 'de-DE' });
    const ids: string[] = [];
    for (const name of ['Shop', 'Blog']) {
      // The second project needs Starter's allowance.
      if (name === 'Blog') await api.post('/api/dev/plan', { username: email, plan: 'BASIC_PLAN', days: 30 });
      const res = await api.post<{ id: string }>('/api/client/website', {
        name,
        url: `${name.toLowerCase()}.example`,
      });
      ids.push((res.body as { msg: { id: string } }).msg.id);
    }
    // The plan ran out yesterday (as the plan copy on each project says).
    const past = new Date(Date.now() - 86_400_000).toISOString();
    for (const id of ids)
      await db().send(
        new UpdateCommand({
          TableName: suite.stack.tableName,
          Key: { pk: `PROJECT#${id}`, sk: 'META' },
          UpdateExpression: 'SET ownerPlanExpire = :p',
          ExpressionAttributeValues: { ':p': past },
        }),
      );
    await page.goto('/profile');
    await page.getByTestId('project-paused').waitFor();
    expect(await page.getByTestId('project-paused').count()).toBe(1);
    expect(await page.getByTestId('project-paused').textContent()).toBe('Pausiert: über Ihrem Tarif');
    await shot(page, 'projects-de-1280-paused');
    expect(t.errors).toEqual([]);
  });
});
