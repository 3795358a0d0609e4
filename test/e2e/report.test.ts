/**
 * A visitor files a report on a customer's page from another origin (issue 7), in Chromium, against the
 * local stack: open the widget, write, take and annotate a screenshot, attach a file, record a tab video
 * on a paid plan, send and see the number. Then the issue is in the table with its objects in S3, and a
 * masked field's value is in neither the PNG nor the HTML snapshot. The same flow in German and Russian,
 * the form in all six languages, on a phone-sized touch screen and on a page with hostile CSS.
 *
 * Customer pages are http://*.customer.test (test/support/customer-site.ts). Screen capture needs a
 * secure context, which a plain-http test host is not, so Chromium is told to treat the shop's origin
 * as secure (as https would be in real life) and to accept this-tab capture without its picker.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GetObjectCommand, HeadObjectCommand } from '@aws-sdk/client-s3';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '#runtime/aws/dynamo';
import { s3 } from '#runtime/aws/s3';
import { getConfig } from '#runtime/config';
import type { Messages } from '../../widget/src/i18n/en';
import { setUpE2eStack, shot } from '../support/browser';
import {
  type CustomerSite,
  type CustomerVisit,
  customerHosts,
  customerPage,
  launchCustomerBrowser,
  startCustomerSite,
  visitCustomerPage,
} from '../support/customer-site';
import { png } from '../support/png';
import { signedIn } from '../support/users';

const stack = setUpE2eStack();
let browser: Browser;
let site: CustomerSite;
let projectId: string;
let owner: Awaited<ReturnType<typeof signedIn>>;

const desktop = { width: 1280, height: 800 };
const SECRET = 'hunter2-Very-Secret';
const CARD = '4242 4242 4242 4242';

const languages = ['en', 'cs', 'fr', 'de', 'ru', 'es'] as const;
const texts = async (lang: (typeof languages)[number]): Promise<Messages> =>
  (await import(`../../widget/src/i18n/${lang}.ts`)).default as Messages;

beforeAll(async () => {
  site = await startCustomerSite();
  const shop = `http://${customerHosts.shop}:${site.port}`;
  browser = await launchCustomerBrowser([
    `--unsafely-treat-insecure-origin-as-secure=${shop}`,
    '--auto-accept-this-tab-capture',
  ]);
  owner = await signedIn(stack.url);
  const created = await owner.client.post<{ id: string }>('/api/client/website', {
    name: 'Acme Shop',
    url: `https://${customerHosts.domain}`,
  });
  expect(created.status).toBe(201);
  projectId = (created.body as { msg: { id: string } }).msg.id;
  // Starter: attachments and video are part of the plan.
  const plan = await owner.client.post('/api/dev/plan', {
    username: owner.email,
    plan: 'BASIC_PLAN',
    days: 30,
  });
  expect(plan.status).toBe(200);
  await configure({ widgetDisableVideo: false, widgetLanguage: 'en' });

  const snippet = `<script async src="${stack.url}/api/website/${projectId}/code"></script>`;
  const privateFields = `<form style="margin:24px 0;display:grid;gap:10px;max-width:360px">
<label>Password <input type="password" id="pw" style="width:240px;height:30px"></label>
<label>Card <input id="cc" autocomplete="cc-number" style="width:240px;height:30px"></label>
<p id="acct" data-snag-mask style="font-size:20px">Account ${SECRET}</p></form>
<style>@keyframes snag-test-spin{to{transform:rotate(1turn)}}</style>
<p style="display:inline-block;animation:snag-test-spin 1s linear infinite">Loading offers</p>`;
  site.page('/', customerPage({ snippet, body: privateFields }));
  site.page(
    '/hostile',
    customerPage({
      snippet,
      head: `<style>
*{box-sizing:content-box!important;font-size:31px!important;letter-spacing:4px!important;line-height:3!important}
button,textarea,input{all:unset}
div{display:none!important}
body *{color:red!important;background:lime!important;padding:9px!important;transform:rotate(3deg)!important}
*:not(html):not(head):not(body){position:static!important;opacity:.2!important;z-index:-1!important}
[hidden]{display:block!important}
</style>`,
    }),
  );
});

afterAll(async () => {
  await browser?.close();
  await site?.close();
});

async function configure(data: Record<string, unknown>) {
  const res = await owner.client.patch(`/api/client/website/${projectId}`, { data });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** A customer page on the shop's host in a fresh context. */
const visit = (path = '/', options: BrowserContextOptions = {}): Promise<CustomerVisit> =>
  visitCustomerPage(browser, site.url(customerHosts.shop, path), { timeoutMs: 15_000, ...options });

/** Opens the panel from the launcher and waits for the form. */
async function openForm(page: Page, t: Messages, tap = false) {
  const launcher = page.locator('snag-launcher').getByRole('button');
  await launcher.waitFor();
  if (tap) await launcher.tap();
  else await launcher.click();
  const dialog = page.getByRole('dialog', { name: t.title });
  await dialog.waitFor();
  await dialog.getByLabel(t.description).waitFor();
  return dialog;
}

/** Sends the open form and returns the number the thank-you screen shows. */
async function sendAndReadNumber(page: Page, t: Messages): Promise<number> {
  await page.getByRole('button', { name: t.send, exact: true }).click();
  const thanks = page.getByText(t.thanksTitle);
  await thanks.waitFor({ timeout: 60_000 });
  const status = page.getByRole('status').filter({ hasText: t.thanksTitle });
  const text = (await status.textContent()) ?? '';
  const number = /#(\d+)/.exec(text)?.[1];
  expect(number, text).toBeDefined();
  return Number(number);
}

/** Leaves the editor that a new screenshot opens in, keeping the screenshot as taken. */
async function keepScreenshot(page: Page, t: Messages, tap = false) {
  const editor = page.getByRole('dialog', { name: t.editorTitle });
  await editor.waitFor({ timeout: 30_000 });
  const done = editor.getByRole('button', { name: t.done });
  if (tap) await done.tap();
  else await done.click();
  await page.getByRole('button', { name: t.annotateN.replace('{n}', '1') }).waitFor();
}

const n10 = (n: number) => String(n).padStart(10, '0');

async function issueDetail(n: number) {
  const out = await db().send(
    new GetCommand({
      TableName: getConfig().TABLE_NAME,
      Key: { pk: `PROJECT#${projectId}`, sk: `ISSUE#${n10(n)}#DETAIL` },
      ConsistentRead: true,
    }),
  );
  return out.Item as
    | {
        msg: string;
        data: Record<string, unknown> & { username: string; href: string };
        files: { name: string; original_name: string; size: number }[];
        screenshots: { name: string; type: string; html: string; size: number }[];
        logs: { msg: string }[];
      }
    | undefined;
}

async function object(key: string): Promise<Buffer> {
  const out = await (await s3()).send(new GetObjectCommand({ Bucket: getConfig().UPLOADS_BUCKET, Key: key }));
  return Buffer.from(await out.Body!.transformToByteArray());
}

/** The colours of a PNG's pixels in a box, read by the browser's own decoder. */
async function pixels(page: Page, png: Buffer, box: { x: number; y: number; width: number; height: number }) {
  return page.evaluate(
    async ({ data, box }) => {
      const img = new Image();
      img.src = `data:image/png;base64,${data}`;
      await img.decode();
      const c = document.createElement('canvas');
      c.width = img.naturalWidth;
      c.height = img.naturalHeight;
      const g = c.getContext('2d')!;
      g.drawImage(img, 0, 0);
      const d = g.getImageData(box.x, box.y, box.width, box.height).data;
      const colours = new Set<string>();
      for (let i = 0; i < d.length; i += 4) colours.add(`${d[i]},${d[i + 1]},${d[i + 2]}`);
      return { colours: [...colours], width: img.naturalWidth, height: img.naturalHeight };
    },
    { data: png.toString('base64'), box },
  );
}

describe('a visitor reports an issue', () => {
  it('writes, takes and annotates a screenshot, attaches a file, records the tab, sends and sees the number', async () => {
    const t = await texts('en');
    const { page, errors, close } = await visit('/');
    // Private data the visitor typed into the page before reporting.
    await page.locator('#pw').fill(SECRET);
    await page.locator('#cc').fill(CARD);
    const pwBox = (await page.locator('#pw').boundingBox())!;
    const dpr = await page.evaluate(() => devicePixelRatio);
    // Something for the console buffer.
    await page.evaluate(() => console.error('cart total is NaN'));

    const dialog = await openForm(page, t);
    await dialog.getByLabel(t.description).fill('The checkout button does nothing when I click it.');
    await dialog.getByLabel(t.email).fill('visitor@example.org');
    await shot(page, 'report-form-en');

    await dialog.getByRole('button', { name: t.takeScreenshot }).click();
    // A new screenshot opens in the editor at once.
    const editor = page.getByRole('dialog', { name: t.editorTitle });
    await editor.waitFor({ timeout: 30_000 });
    await editor.getByRole('button', { name: t.toolRect }).click();
    const canvas = editor.getByRole('img', { name: t.editorTitle });
    const cb = (await canvas.boundingBox())!;
    await page.mouse.move(cb.x + cb.width * 0.6, cb.y + cb.height * 0.2);
    await page.mouse.down();
    await page.mouse.move(cb.x + cb.width * 0.8, cb.y + cb.height * 0.4, { steps: 5 });
    await page.mouse.up();
    await shot(page, 'report-annotate-en');
    await editor.getByRole('button', { name: t.done }).click();
    await editor.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: t.annotateN.replace('{n}', '1') }).waitFor();

    await dialog.locator('input[type=file]').setInputFiles({
      name: 'steps to reproduce.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('1. Add a vase to the cart\n2. Click checkout\n'),
    });
    await dialog.getByText('steps to reproduce.txt').waitFor();

    await dialog.getByRole('button', { name: t.record }).click();
    const stop = page.getByRole('button', { name: t.stopRecording });
    await stop.waitFor();
    await page.waitForTimeout(3000); // a 3-second recording of the tab
    await stop.click();
    await page.getByLabel(t.videoPreview).waitFor();
    await shot(page, 'report-ready-en');

    const number = await sendAndReadNumber(page, t);
    await shot(page, 'report-thanks-en');
    expect(number).toBeGreaterThanOrEqual(1);
    expect(errors.filter((e) => !e.includes('cart total is NaN'))).toEqual([]);

    const issue = await issueDetail(number);
    expect(issue?.msg).toBe('The checkout button does nothing when I click it.');
    expect(issue?.data.username).toBe('visitor@example.org');
    expect(issue?.data.href).toBe(site.url(customerHosts.shop, '/'));
    expect(issue?.data.browser).toMatch(/Chrom/);
    expect(issue?.logs.some((l) => l.msg.includes('cart total is NaN'))).toBe(true);
    expect(issue?.files).toEqual([expect.objectContaining({ original_name: 'steps to reproduce.txt' })]);
    const png = issue?.screenshots.find((s) => s.type === 'png');
    const video = issue?.screenshots.find((s) => s.type === 'webm' || s.type === 'mp4');
    expect(png?.html).toMatch(/\.html$/);
    expect(video?.size).toBeGreaterThan(0);
    const bucket = getConfig().UPLOADS_BUCKET;
    for (const key of [
      `p/${projectId}/f/${issue!.files[0]!.name}`,
      `p/${projectId}/s/${png!.name}`,
      `p/${projectId}/s/${png!.html}`,
      `p/${projectId}/s/${video!.name}`,
    ]) {
      await (await s3()).send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
    }

    // The masked password field is one opaque block in the PNG, and no secret is in the snapshot.
    const image = await object(`p/${projectId}/s/${png!.name}`);
    const inner = {
      x: Math.round((pwBox.x + 4) * dpr),
      y: Math.round((pwBox.y + 4) * dpr),
      width: Math.round((pwBox.width - 8) * dpr),
      height: Math.round((pwBox.height - 8) * dpr),
    };
    const seen = await pixels(page, image, inner);
    expect(seen.width).toBe(desktop.width * dpr);
    expect(seen.colours).toHaveLength(1);
    const html = (await object(`p/${projectId}/s/${png!.html}`)).toString('utf8');
    expect(html).toContain('Handmade ceramics');
    expect(html).not.toContain(SECRET);
    expect(html).not.toContain(CARD);
    expect(html).not.toMatch(/<script/i);
    await close();

    // The project table counts the new report.
    const list = await owner.client.get<{ websites: { uuid: string; total: number }[] }>(
      '/api/client/website',
    );
    const row = (list.body as { msg: { websites: { uuid: string; total: number }[] } }).msg.websites.find(
      (w) => w.uuid === projectId,
    );
    expect(row?.total).toBeGreaterThanOrEqual(1);
  });

  for (const lang of ['de', 'ru'] as const) {
    it(`files a report with a screenshot in ${lang === 'de' ? 'German' : 'Russian'}`, async () => {
      await configure({ widgetLanguage: lang });
      const t = await texts(lang);
      const { page, errors, close } = await visit('/');
      const dialog = await openForm(page, t);
      await dialog
        .getByLabel(t.description)
        .fill(lang === 'de' ? 'Der Warenkorb ist leer.' : 'Корзина пуста.');
      await dialog.getByRole('button', { name: t.takeScreenshot }).click();
      await keepScreenshot(page, t);
      await shot(page, `report-form-${lang}`);
      const number = await sendAndReadNumber(page, t);
      await shot(page, `report-thanks-${lang}`);
      const issue = await issueDetail(number);
      expect(issue?.screenshots).toHaveLength(1);
      expect(errors).toEqual([]);
      await close();
    });
  }

  it('speaks each of the six languages', async () => {
    for (const lang of languages) {
      await configure({ widgetLanguage: lang });
      const t = await texts(lang);
      const { page, errors, close } = await visit('/');
      const dialog = await openForm(page, t);
      await dialog.getByRole('button', { name: t.send, exact: true }).waitFor();
      await shot(page, `report-language-${lang}`);
      expect(errors).toEqual([]);
      await close();
    }
    await configure({ widgetLanguage: 'en' });
  });

  it('in a strict project: no email field, and the page address arrives without its query and fragment', async () => {
    await configure({ widgetLanguage: 'en', strictPrivacy: true });
    const t = await texts('en');
    const { page, errors, close } = await visit('/?coupon=SUMMER24&ref=mail#offers');
    try {
      const dialog = await openForm(page, t);
      expect(await dialog.getByLabel(t.email).count()).toBe(0);
      await dialog.getByLabel(t.description).fill('The coupon is not applied.');
      await shot(page, 'report-form-strict');
      const issue = await issueDetail(await sendAndReadNumber(page, t));
      expect(issue?.data.href).toBe(site.url(customerHosts.shop, '/'));
      expect(issue?.data.username ?? '').toBe('');
      expect(JSON.stringify(issue)).not.toContain('SUMMER24');
      expect(errors).toEqual([]);
    } finally {
      await close();
      await configure({ strictPrivacy: false });
    }
  });

  it('works at 360 px with touch', async () => {
    await configure({ widgetLanguage: 'en' });
    const t = await texts('en');
    const { page, errors, close } = await visit('/', {
      viewport: { width: 360, height: 740 },
      isMobile: true,
      hasTouch: true,
    });
    const dialog = await openForm(page, t, true);
    const box = (await dialog.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(360);
    await dialog.getByLabel(t.description).fill('Menu overlaps the logo on my phone');
    await dialog.getByRole('button', { name: t.takeScreenshot }).tap();
    await keepScreenshot(page, t, true);
    // Phones cannot record a tab: no video control.
    expect(await dialog.getByRole('button', { name: t.record }).count()).toBe(0);
    await shot(page, 'report-phone');
    await page.getByRole('button', { name: t.send, exact: true }).tap();
    await page.getByText(t.thanksTitle).waitFor({ timeout: 60_000 });
    await shot(page, 'report-phone-thanks');
    expect(errors).toEqual([]);
    await close();
  });

  it('works on a page with hostile CSS', async () => {
    const t = await texts('en');
    const { page, errors, close } = await visit('/hostile');
    const dialog = await openForm(page, t);
    const area = dialog.getByLabel(t.description);
    expect(await area.evaluate((el) => getComputedStyle(el).boxSizing)).toBe('border-box');
    await area.fill('Everything is lime green');
    await shot(page, 'report-hostile-css');
    const number = await sendAndReadNumber(page, t);
    expect((await issueDetail(number))?.msg).toBe('Everything is lime green');
    expect(errors).toEqual([]);
    await close();
  });
});

describe('the screenshot tools (issue 19)', () => {
  /** Takes a viewport screenshot from the open form and returns the editor it opens in. */
  async function screenshotEditor(page: Page, t: Messages) {
    await page.getByRole('button', { name: t.takeScreenshot }).click();
    const editor = page.getByRole('dialog', { name: t.editorTitle });
    await editor.waitFor({ timeout: 30_000 });
    return editor;
  }

  it('Escape while typing a text annotation adds the text; the next Escape leaves the editor, keeping it', async () => {
    const t = await texts('en');
    const { page, errors, close } = await visit('/');
    await openForm(page, t);
    const editor = await screenshotEditor(page, t);
    // The hint says what Escape does, in both cases.
    const canvas = editor.getByRole('img', { name: t.editorTitle });
    expect(await canvas.getAttribute('aria-describedby')).toBe('snag-eh');
    expect(await editor.locator('#snag-eh').textContent()).toBe(t.editorHelp);
    expect(t.editorHelp).toMatch(/Escape finishes the text/);

    await editor.getByRole('button', { name: t.toolText }).click();
    const cb = (await canvas.boundingBox())!;
    await page.mouse.click(cb.x + cb.width * 0.3, cb.y + cb.height * 0.3);
    const field = editor.getByRole('textbox', { name: t.textInput });
    await field.waitFor();
    expect(await field.getAttribute('aria-describedby')).toBe('snag-th');
    await field.pressSequentially('Price is wrong');
    await shot(page, 'report-annotate-text-typing');
    await field.press('Escape');
    // The text is a shape now (Undo has something to undo) and the editor is still open.
    await field.waitFor({ state: 'detached' });
    expect(await editor.getByRole('button', { name: t.undo }).isEnabled()).toBe(true);
    expect(await editor.isVisible()).toBe(true);
    await shot(page, 'report-annotate-text-escaped');

    await page.keyboard.press('Escape');
    await editor.waitFor({ state: 'detached' });
    // Back in the form with the screenshot; reopening it shows the kept text (undo is still possible).
    await page.getByRole('button', { name: t.annotateN.replace('{n}', '1') }).click();
    const again = page.getByRole('dialog', { name: t.editorTitle });
    await again.waitFor();
    expect(await again.getByRole('button', { name: t.undo }).isEnabled()).toBe(true);
    expect(errors).toEqual([]);
    await close();
  });

  it('offers the screen-sharing screenshot on a desktop, explained, and it takes a picture', async () => {
    const t = await texts('en');
    const { page, errors, close } = await visit('/');
    const dialog = await openForm(page, t);
    const button = dialog.getByRole('button', { name: t.captureScreen });
    await button.waitFor();
    // The hint is the button's description, so a screen reader hears it too.
    expect(await button.getAttribute('aria-describedby')).toBe('snag-sc');
    expect(await dialog.locator('#snag-sc').textContent()).toBe(t.captureScreenHint);
    await shot(page, 'report-form-screen-sharing');
    await button.click(); // Chromium runs with --auto-accept-this-tab-capture: no prompt.
    const editor = page.getByRole('dialog', { name: t.editorTitle });
    await editor.waitFor({ timeout: 30_000 });
    // A real-screen picture has no replaced images, so no grey-box note.
    expect(await editor.getByRole('status').count()).toBe(0);
    await editor.getByRole('button', { name: t.done }).click();
    await page.getByRole('button', { name: t.annotateN.replace('{n}', '1') }).waitFor();
    expect(errors).toEqual([]);
    await close();
  });

  it('does not offer it at 390 px on a phone (touch, mobile user agent), in any language', async () => {
    for (const lang of ['en', 'de'] as const) {
      await configure({ widgetLanguage: lang });
      const t = await texts(lang);
      const { page, errors, close } = await visit('/', {
        viewport: { width: 390, height: 844 },
        isMobile: true,
        hasTouch: true,
        userAgent:
          'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
      });
      const dialog = await openForm(page, t, true);
      await dialog.getByRole('button', { name: t.takeScreenshot }).waitFor();
      expect(await dialog.getByRole('button', { name: t.captureScreen }).count()).toBe(0);
      expect(await dialog.getByText(t.captureScreenHint).count()).toBe(0);
      await shot(page, `report-phone-390-${lang}`);
      expect(errors).toEqual([]);
      await close();
    }
    await configure({ widgetLanguage: 'en' });
  });

  it("says in the editor that other sites' images became grey boxes, only when they did", async () => {
    // Another origin serving a photo without CORS headers, as most image CDNs of other sites do.
    const photos = createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'image/png' }).end(png(120, 80, [250, 200, 0])),
    );
    await new Promise<void>((resolve) => photos.listen(0, '127.0.0.1', resolve));
    const photo = `http://${customerHosts.other}:${(photos.address() as AddressInfo).port}/photo.png`;
    const snippet = `<script async src="${stack.url}/api/website/${projectId}/code"></script>`;
    site.page(
      '/foreign',
      customerPage({
        snippet,
        body: `<p><img src="${photo}" alt="Partner logo" width="120" height="80"></p>`,
      }),
    );
    try {
      for (const lang of languages) {
        await configure({ widgetLanguage: lang });
        const t = await texts(lang);
        const { page, errors, close } = await visit('/foreign');
        await page.locator('img[alt="Partner logo"]').evaluate((img: HTMLImageElement) => img.decode());
        await openForm(page, t);
        const editor = await screenshotEditor(page, t);
        const note = editor.getByRole('status');
        await note.waitFor();
        expect(await note.textContent()).toBe(t.placeholdersNote.replace('{n}', '1'));
        if (lang === 'en' || lang === 'de') await shot(page, `report-annotate-grey-boxes-${lang}`);
        // The note does not block: drawing and Done still work.
        await editor.getByRole('button', { name: t.done }).click();
        await editor.waitFor({ state: 'detached' });
        // The browser's own CORS refusal is the only console error.
        expect(errors.filter((e) => !/CORS|Failed to (load resource|fetch)/.test(e))).toEqual([]);
        await close();
      }
      await configure({ widgetLanguage: 'en' });
      // The shop's own page has no foreign images: no note.
      const t = await texts('en');
      const { page, close } = await visit('/');
      await openForm(page, t);
      const editor = await screenshotEditor(page, t);
      await editor.getByRole('button', { name: t.done }).waitFor();
      expect(await editor.getByRole('status').count()).toBe(0);
      await close();
    } finally {
      photos.close();
    }
  });
});

describe("the client's own widget texts (issue 19)", () => {
  const own = {
    title: 'Report a bug',
    welcomeTitle: '<img src=x onerror="window.__pwned=1">Hello!',
    welcomeText: 'Tell us what broke.\nWe read every report.',
    descriptionPlaceholder: 'What did you try to do?',
    thanksText: 'We will look into it today.',
  };

  afterAll(async () => {
    await configure({ widgetLanguage: 'en', widgetTexts: {}, widgetDisableWelcomeScreen: true });
  });

  it('shows them as plain text on the welcome, form and thank-you screens, for their language only', async () => {
    await configure({
      widgetLanguage: 'en',
      widgetDisableWelcomeScreen: false,
      widgetTexts: { en: own, de: { title: 'Fehler melden' } },
    });
    // The loader's configuration carries the language's texts only.
    const code = await (await fetch(`${stack.url}/api/website/${projectId}/code`)).text();
    expect(code).toContain('What did you try to do?');
    expect(code).not.toContain('Fehler melden');
    expect(code).not.toContain('<img'); // escaped inside the script: \u003cimg

    const t = await texts('en');
    const { page, errors, close } = await visit('/');
    await page.locator('snag-launcher').getByRole('button').click();
    const dialog = page.getByRole('dialog', { name: own.title });
    await dialog.waitFor();
    await dialog.getByText(own.welcomeTitle, { exact: true }).waitFor();
    await dialog.getByText('Tell us what broke.', { exact: false }).waitFor();
    await shot(page, 'report-own-texts-welcome');
    // Text, never markup: no image element, nothing ran.
    expect(await page.locator('snag-panel img').count()).toBe(0);
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();

    await dialog.getByRole('button', { name: t.start }).click();
    const description = dialog.getByLabel(t.description);
    await description.waitFor();
    expect(await description.getAttribute('placeholder')).toBe(own.descriptionPlaceholder);
    await description.fill('The size chart is empty.');
    await page.getByRole('button', { name: t.send, exact: true }).click();
    await dialog.getByText(own.thanksText).waitFor({ timeout: 60_000 });
    await dialog.getByText(t.thanksTitle).waitFor();
    await shot(page, 'report-own-texts-thanks');
    expect(errors).toEqual([]);
    await close();

    // German, with only a heading of its own: the rest is the built-in German.
    await configure({ widgetLanguage: 'de' });
    const de = await texts('de');
    const german = await visit('/');
    await german.page.locator('snag-launcher').getByRole('button').click();
    const panel = german.page.getByRole('dialog', { name: 'Fehler melden' });
    await panel.getByText(de.welcomeTitle, { exact: true }).waitFor();
    expect(await panel.getByText(own.welcomeTitle).count()).toBe(0);
    expect(german.errors).toEqual([]);
    await german.close();
  });
});
