/**
 * Screenshot fidelity budget (DESIGN.md section 7, issue 20): on each page of the suite (fidelity-pages.ts),
 * at the top and scrolled, at devicePixelRatio 1 and 2, in a 1280×800 viewport, the widget's screenshot is
 * compared with Chromium's own screenshot of the same viewport (pixelmatch, threshold 0.1: the share of
 * pixels that differ), and so is html2canvas's picture of the same view.
 *
 * The widget's screenshot is taken through the real widget, as a visitor takes it: the page carries the
 * install snippet, the launcher opens the panel, "Take screenshot" runs the widget's own code (it hides its
 * UI, captures, opens the editor). The picture is the canvas the editor receives, read where the app draws
 * it (a `drawImage` of a detached canvas of the viewport's device size, recorded by an init script), so
 * nothing of the app is changed for the bench. "Snag ms" is from the click on "Take screenshot" to that
 * canvas: hiding the widget (two frames), the HTML snapshot and the capture. "html2canvas ms" is its call.
 * Chromium's screenshot and html2canvas's picture are taken first, with the launcher hidden as the widget
 * hides it; the widget is used with the keyboard, so the mouse never hovers anything on the page. Each view
 * checks that the scroll position is the same for all three pictures and that they are the same size.
 * Chromium runs with scrollbars, as a desktop visitor has them (Playwright hides them when headless, which
 * would make the page's own styled scrollbars, which the widget draws, count as a difference); the
 * pictures are of the layout viewport, without the window's scrollbar.
 *
 * Run directly: `npx tsx test/bench/fidelity.ts [page name…]` (builds the widget first); `npm run bench`
 * includes it. FIDELITY_DIFF_DIR=<dir> saves, per view, Chromium's picture, the two captures and their
 * pixelmatch diffs (red: differing pixels) as PNG.
 */
import { execSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pixelmatch from 'pixelmatch';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { customerHosts, launchCustomerBrowser } from '../support/customer-site';
import {
  ensurePages,
  type FidelityPage,
  type FidelityView,
  fidelityPages,
  packageDir,
} from './fidelity-pages';
import { contentType, startFidelityServer } from './fidelity-server';

const require_ = (await import('node:module')).createRequire(import.meta.url);

export const fidelityBudget = {
  /** Per view: at most this share of pixels may differ from Chromium's screenshot. */
  maxDiffPercent: 3,
  /** pixelmatch's colour threshold. */
  threshold: 0.1,
  /**
   * "Never worse than html2canvas", less this many percentage points: below a few hundredths of a percent
   * both tools differ from Chromium only by anti-aliasing, which moves from run to run.
   */
  html2canvasSlackPoints: 0.05,
  viewport: { width: 1280, height: 800 },
  dprs: [1, 2],
};

export interface FidelityRow {
  page: string;
  view: string;
  dpr: number;
  /** Percent of pixels that differ from Chromium's screenshot; null when the capture failed. */
  snag: number | null;
  html2canvas: number | null;
  snagMs: number | null;
  html2canvasMs: number | null;
  ok: boolean;
  note: string;
}

/**
 * Runs in every page before its scripts: records the click that starts the screenshot, and the first
 * detached canvas of at least half the viewport's device width drawn after that click, which is the
 * capture the app hands to its thumbnail and editor (annotate/render.ts draws it with `drawImage`).
 */
const hook = `(() => {
  // tsx names the functions it compiles with a \`__name\` helper; the ones passed to page.evaluate need it.
  if (!window.__name) Object.defineProperty(window, '__name', { value: (f) => f });
  const draw = CanvasRenderingContext2D.prototype.drawImage;
  addEventListener('click', () => { if (window.__snagArmed && !window.__snagClickAt) window.__snagClickAt = performance.now(); }, true);
  CanvasRenderingContext2D.prototype.drawImage = function (source, ...rest) {
    if (window.__snagClickAt && !window.__snagBase && source instanceof HTMLCanvasElement && !source.isConnected &&
        source.width >= innerWidth * devicePixelRatio / 2) {
      window.__snagBase = source;
      window.__snagBaseAt = performance.now();
    }
    return draw.call(this, source, ...rest);
  };
})();`;

const html2canvasSource = () =>
  readFileSync(
    join(dirname(require_.resolve('html2canvas/package.json')), 'dist', 'html2canvas.min.js'),
    'utf8',
  );

interface Geometry {
  width: number;
  height: number;
  scrollX: number;
  scrollY: number;
  /** The page's own scroller, for views that scroll one (scrollScript). */
  inner: number;
}

/** Where the view is: the layout viewport (without scrollbars) and the scroll positions. */
export const geometry = (page: Page): Promise<Geometry> =>
  page.evaluate(() => {
    const html = document.documentElement;
    let inner = 0;
    // The deepest scrolled element's offset, found in open shadow roots too (rapidoc scrolls one).
    const visit = (root: Document | ShadowRoot) => {
      for (const el of root.querySelectorAll('*')) {
        if (el.scrollTop) inner += el.scrollTop;
        if (el.shadowRoot) visit(el.shadowRoot);
      }
    };
    visit(document);
    return {
      width: html.clientWidth || innerWidth,
      height: document.compatMode === 'CSS1Compat' ? html.clientHeight : innerHeight,
      scrollX,
      scrollY,
      inner: inner - (document.scrollingElement?.scrollTop ?? 0),
    };
  });

/** Hides or shows the launcher exactly as the widget does around its own capture (app/index.ts). */
export const hideLauncher = (page: Page, hidden: boolean) =>
  page.evaluate(async (hidden) => {
    for (const el of document.querySelectorAll<HTMLElement>('snag-launcher, snag-panel')) el.hidden = hidden;
    await new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r())));
  }, hidden);

export function decode(png: Buffer): PNG {
  return PNG.sync.read(png);
}

export const fromDataUrl = (url: string) => Buffer.from(url.slice(url.indexOf(',') + 1), 'base64');

/** Percent of differing pixels, and the diff image; 100 % when the sizes differ. */
export function compare(reference: PNG, png: Buffer): { percent: number; diff: PNG | null; size: string } {
  const image = decode(png);
  const size = `${image.width}×${image.height}`;
  if (image.width !== reference.width || image.height !== reference.height)
    return { percent: 100, diff: null, size };
  const diff = new PNG({ width: image.width, height: image.height });
  const n = pixelmatch(reference.data, image.data, diff.data, image.width, image.height, {
    threshold: fidelityBudget.threshold,
  });
  return { percent: (100 * n) / (image.width * image.height), diff, size };
}

export async function routeExternal(context: BrowserContext, origin: string, pages: FidelityPage[]) {
  const external = new Map<string, NonNullable<FidelityPage['external']>[string]>();
  for (const p of pages) for (const [url, e] of Object.entries(p.external ?? {})) external.set(url, e);
  await context.route(
    (url) => url.origin !== origin,
    async (route) => {
      const e = external.get(route.request().url());
      if (!e) return route.abort('blockedbyclient');
      if (e.body) return route.fulfill({ status: 200, contentType: e.type, body: e.body() });
      const [scope, name, ...rest] = e.file!.split('/');
      const pkg = scope!.startsWith('@') ? `${scope}/${name}` : scope!;
      const path = join(packageDir(pkg), ...(scope!.startsWith('@') ? rest : [name!, ...rest]));
      return route.fulfill({ status: 200, contentType: contentType(path), body: readFileSync(path) });
    },
  );
}

/** Scrolls to the view and waits until the page has settled (fonts, images, transitions). */
export async function goToView(page: Page, view: FidelityView): Promise<void> {
  if (view.scrollScript) await page.evaluate(view.scrollScript);
  else await page.evaluate((y) => window.scrollTo(0, y), view.scrollY ?? 0);
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await page.waitForTimeout(1200);
}

async function measureView(
  browser: Browser,
  server: { origin: string; url(p: FidelityPage, q?: string): string },
  page: FidelityPage,
  view: FidelityView,
  dpr: number,
  diffDir: string | undefined,
): Promise<FidelityRow> {
  const row: FidelityRow = {
    page: page.name,
    view: view.name,
    dpr,
    snag: null,
    html2canvas: null,
    snagMs: null,
    html2canvasMs: null,
    ok: false,
    note: '',
  };
  const context = await browser.newContext({ viewport: fidelityBudget.viewport, deviceScaleFactor: dpr });
  try {
    await context.addInitScript(hook);
    await routeExternal(context, server.origin, [page]);
    const p = await context.newPage();
    p.setDefaultTimeout(30_000);
    await p.goto(server.url(page, view.query), { waitUntil: 'load' });
    await p.waitForLoadState('networkidle').catch(() => {});
    const launcher = p.locator('snag-launcher').getByRole('button');
    await launcher.waitFor();
    await goToView(p, view);
    const at = await geometry(p);
    const clip = { x: 0, y: 0, width: at.width, height: at.height };

    // Chromium's own picture, then html2canvas's, both without the widget's UI.
    await hideLauncher(p, true);
    const chromium = await p.screenshot({ clip, scale: 'device' });
    const reference = decode(chromium);
    await p.addScriptTag({ content: html2canvasSource() });
    const h2c = await p.evaluate(
      async ({ dpr, width, height }) => {
        const w = window as unknown as { html2canvas(el: Element, o: object): Promise<HTMLCanvasElement> };
        const t = performance.now();
        const canvas = await w.html2canvas(document.body, {
          x: window.scrollX,
          y: window.scrollY,
          width,
          height,
          scale: dpr,
          logging: false,
          ignoreElements: (el: Element) => el.tagName.startsWith('SNAG-'),
        });
        const ms = performance.now() - t;
        return { ms, png: canvas.toDataURL('image/png') };
      },
      { dpr, width: at.width, height: at.height },
    );
    await hideLauncher(p, false);
    const afterH2c = await geometry(p);

    // The widget, as a visitor uses it (keyboard: the mouse stays where it was).
    await launcher.press('Enter');
    const take = p.getByRole('button', { name: 'Take screenshot' });
    await take.waitFor();
    await p.evaluate(() => {
      (window as unknown as { __snagArmed: boolean }).__snagArmed = true;
    });
    await take.press('Enter');
    await p.waitForFunction(() => (window as unknown as { __snagBase?: unknown }).__snagBase);
    const snag = await p.evaluate(() => {
      const w = window as unknown as {
        __snagBase: HTMLCanvasElement;
        __snagBaseAt: number;
        __snagClickAt: number;
      };
      return { ms: w.__snagBaseAt - w.__snagClickAt, png: w.__snagBase.toDataURL('image/png') };
    });
    const afterSnag = await geometry(p);

    const moved = [afterH2c, afterSnag].some(
      (g) => g.scrollX !== at.scrollX || g.scrollY !== at.scrollY || g.inner !== at.inner,
    );
    const s = compare(reference, fromDataUrl(snag.png));
    const h = compare(reference, fromDataUrl(h2c.png));
    row.snag = s.percent;
    row.html2canvas = h.percent;
    row.snagMs = snag.ms;
    row.html2canvasMs = h2c.ms;
    const notes: string[] = [];
    if (moved) notes.push('scroll position changed');
    if (!s.diff) notes.push(`snag ${s.size} vs ${reference.width}×${reference.height}`);
    if (!h.diff) notes.push(`html2canvas ${h.size} vs ${reference.width}×${reference.height}`);
    if (at.scrollY === 0 && at.inner === 0 && view.name !== 'top') notes.push('did not scroll');
    row.note = notes.join('; ');
    row.ok =
      !moved &&
      s.percent <= fidelityBudget.maxDiffPercent &&
      s.percent <= h.percent + fidelityBudget.html2canvasSlackPoints;

    if (diffDir) {
      const base = join(diffDir, `${page.name.replace(/\W+/g, '-')}-${view.name}-dpr${dpr}`);
      writeFileSync(`${base}-chromium.png`, chromium);
      writeFileSync(`${base}-snag.png`, fromDataUrl(snag.png));
      writeFileSync(`${base}-html2canvas.png`, fromDataUrl(h2c.png));
      if (s.diff) writeFileSync(`${base}-snag-diff.png`, PNG.sync.write(s.diff));
      if (h.diff) writeFileSync(`${base}-html2canvas-diff.png`, PNG.sync.write(h.diff));
    }
  } catch (error) {
    row.note = `failed: ${(error as Error).message.split('\n')[0]}`;
  } finally {
    await context.close();
  }
  return row;
}

/** The whole suite, or the pages named in `only`. */
export async function fidelityBench(
  only: string[] = [],
  diffDir = process.env.FIDELITY_DIFF_DIR,
): Promise<FidelityRow[]> {
  ensurePages();
  const pages = only.length ? fidelityPages.filter((p) => only.includes(p.name)) : fidelityPages;
  if (diffDir) mkdirSync(diffDir, { recursive: true });
  const server = await startFidelityServer(pages, customerHosts.domain);
  const browser = await launchCustomerBrowser([], { scrollbars: true });
  const rows: FidelityRow[] = [];
  try {
    for (const page of pages)
      for (const view of page.views)
        for (const dpr of fidelityBudget.dprs)
          rows.push(await measureView(browser, server, page, view, dpr, diffDir));
  } finally {
    await browser.close();
    await server.close();
  }
  return rows;
}

const pct = (x: number | null) => (x === null ? '-' : `${x.toFixed(2)} %`);
const ms = (x: number | null) => (x === null ? '-' : `${x.toFixed(0)} ms`);

/** The table `npm run bench` and the direct entry print. */
export const fidelityTable = (rows: FidelityRow[]) =>
  rows.map((r) => ({
    page: r.page,
    view: r.view,
    DPR: r.dpr,
    'Snag % diff': pct(r.snag),
    'html2canvas % diff': pct(r.html2canvas),
    'Snag ms': ms(r.snagMs),
    'html2canvas ms': ms(r.html2canvasMs),
    ok: r.ok ? 'yes' : `OVER BUDGET${r.note ? ` (${r.note})` : ''}`,
  }));

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  execSync('npx tsx widget/build.ts', { stdio: 'inherit' });
  const rows = await fidelityBench(process.argv.slice(2));
  console.table(fidelityTable(rows));
  const medianOf = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
  const times = (k: 'snagMs' | 'html2canvasMs') => rows.flatMap((r) => (r[k] === null ? [] : [r[k]!]));
  console.log(
    `median capture: Snag ${medianOf(times('snagMs')).toFixed(0)} ms, html2canvas ${medianOf(times('html2canvasMs')).toFixed(0)} ms`,
  );
  const ok = rows.every((r) => r.ok);
  console.log(ok ? 'within budget' : 'OVER BUDGET');
  if (!ok) process.exitCode = 1;
}
