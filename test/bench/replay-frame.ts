/**
 * Does the replay show what the visitor saw? (DESIGN.md section 7, docs/replay.md): on the fidelity suite's
 * pages (fidelity-pages.ts, top view, devicePixelRatio 1, 1280×800), with the project's replay on, the
 * recording the widget would attach (`Snag._a.replay.take()`, the same call the report makes: rrweb's
 * events, gzip) is played by rrweb's replayer, as the dashboard's Replay section plays it, and its last frame
 * is compared with Chromium's own screenshot of the page at the moment of the take (the report's
 * screenshot: the fidelity bench shows the widget's capture equals Chromium's within 0.2 %). Budget: at most
 * 3 % of pixels differ (pixelmatch, threshold 0.1), in the median of three takes (each a fresh load, recording
 * and replay: when the recorder starts against how far the page has rendered varies from one to the next).
 * Both pictures are taken once their document has settled (`settle`: fonts, images, no DOM change for ten
 * frames, shadow roots included), never after a fixed sleep.
 *
 * What the recorder leaves out by design is left out of both pictures: the widget's own launcher (the
 * recording blocks it; the screenshot hides it as the widget does), and canvases, media and
 * `data-snag-block` elements, which the replay shows as empty boxes (painted one grey in both pictures, so a
 * chart counts neither for nor against). The page server sends fonts with CORS, as CDNs do: a replay is
 * played on another origin, and fonts without it fall back there (docs/replay.md). Run alone: `npx tsx test/bench/replay-frame.ts [page name…]`; REPLAY_DIFF_DIR=<dir> saves
 * the three pictures and the recording per page and take (`<dir>/take-<n>/`).
 */
import { execSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { build } from 'esbuild';
import type { Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { launchCustomerBrowser } from '../support/customer-site';
import { compare, decode, geometry, goToView, hideLauncher, routeExternal } from './fidelity';
import { ensurePages, type FidelityPage, fidelityPages } from './fidelity-pages';
import { startFidelityServer, widgetDir } from './fidelity-server';

const require_ = createRequire(import.meta.url);

/** `takes`: each page is loaded, recorded and replayed this many times; the row is the median take. */
export const replayFrameBudget = { maxDiffPercent: 3, viewport: { width: 1280, height: 800 }, takes: 3 };

export interface ReplayFrameRow {
  page: string;
  /** Percent of pixels that differ, the median take's; null when no recording could be taken or played. */
  diff: number | null;
  /** Each take's percent (or null), in the order taken. */
  takes: (number | null)[];
  events: number;
  gzipKB: number;
  ok: boolean;
  note: string;
}

/** rrweb's replayer as one script for a blank page (the dashboard bundles the same package). */
async function replayerScript(): Promise<{ js: string; css: string }> {
  const out = await build({
    stdin: { contents: "export { Replayer } from '@rrweb/replay';", resolveDir: process.cwd() },
    bundle: true,
    format: 'iife',
    globalName: 'rrwebReplay',
    write: false,
    logLevel: 'warning',
  });
  return {
    js: out.outputFiles[0]!.text,
    css: readFileSync(require_.resolve('@rrweb/replay/dist/style.css'), 'utf8'),
  };
}

/** How long a page must stay still to count as settled, and how long the bench waits for that at most. */
export const settleRule = { quietFrames: 10, maxMs: 8000 };

/**
 * Waits until a document has settled, the same rule for the page before its screenshot and for the
 * replayer's frame before its picture (`frame`: the frame's selector in the player's page): its fonts
 * loaded, its images complete, and no change to its DOM, open shadow roots included (web components such
 * as rapidoc render in them, where a document's observer does not see), for `quietFrames` animation frames
 * in a row. Answers false when it never settled within `maxMs` (a page that animates for ever).
 */
export const settle = (page: Page, frame?: string): Promise<boolean> =>
  page.evaluate(
    async ({ frame, quietFrames, maxMs }) => {
      const doc = frame ? (document.querySelector(frame) as HTMLIFrameElement).contentDocument! : document;
      await doc.fonts.ready;
      let quiet = 0;
      const observer = new MutationObserver(() => {
        quiet = 0;
      });
      const watched = new WeakSet<Node>();
      const watch = (root: Document | ShadowRoot) => {
        if (!watched.has(root)) {
          watched.add(root);
          observer.observe(root, { subtree: true, childList: true, attributes: true, characterData: true });
        }
        for (const el of root.querySelectorAll('*')) if (el.shadowRoot) watch(el.shadowRoot);
      };
      const start = performance.now();
      while (quiet < quietFrames && performance.now() - start < maxMs) {
        watch(doc); // Shadow roots made since the last frame.
        await new Promise((r) => requestAnimationFrame(r));
        quiet = [...doc.images].every((img) => img.complete) ? quiet + 1 : 0;
      }
      observer.disconnect();
      return quiet >= quietFrames;
    },
    { frame, ...settleRule },
  );

/** What the recorder blocks by design (replay-options.ts): canvases, media, plugins, `data-snag-block`. */
const blockedBoxes = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('[data-snag-block],canvas,video,audio,object,embed')].map((el) => {
      const r = el.getBoundingClientRect();
      return {
        x: Math.floor(r.x),
        y: Math.floor(r.y),
        w: Math.ceil(r.width) + 1,
        h: Math.ceil(r.height) + 1,
      };
    }),
  );

/** The same picture with those boxes painted one grey: they count neither for nor against the replay. */
function blank(png: PNG, boxes: { x: number; y: number; w: number; h: number }[]): PNG {
  for (const b of boxes)
    for (let y = Math.max(0, b.y); y < Math.min(png.height, b.y + b.h); y++)
      for (let x = Math.max(0, b.x); x < Math.min(png.width, b.x + b.w); x++) {
        const i = (y * png.width + x) * 4;
        png.data.set([128, 128, 128, 255], i);
      }
  return png;
}

async function measure(
  page: FidelityPage,
  server: { origin: string; url(p: FidelityPage): string },
  player: { js: string; css: string },
  browser: Awaited<ReturnType<typeof launchCustomerBrowser>>,
  diffDir: string | undefined,
): Promise<ReplayFrameRow> {
  const row: ReplayFrameRow = {
    page: page.name,
    diff: null,
    takes: [],
    events: 0,
    gzipKB: 0,
    ok: false,
    note: '',
  };
  const context = await browser.newContext({ viewport: replayFrameBudget.viewport, deviceScaleFactor: 1 });
  try {
    // tsx names the functions it compiles (`__name`); the pages run them through page.evaluate.
    await context.addInitScript('window.__name = window.__name || ((f) => f);');
    await routeExternal(context, server.origin, [page]);
    const p = await context.newPage();
    p.setDefaultTimeout(30_000);
    await p.goto(server.url(page), { waitUntil: 'load' });
    await p.waitForLoadState('networkidle').catch(() => {});
    await p.locator('snag-launcher').getByRole('button').waitFor();
    // The recorder chunk arrives once the page is idle; then a full snapshot exists.
    await p.waitForFunction(() => {
      const snag = (window as unknown as { Snag?: { _a?: { replay?: { has(): boolean } } } }).Snag;
      return snag?._a?.replay?.has() === true;
    });
    await goToView(p, { name: 'top', scrollY: 0 });
    if (!(await settle(p))) row.note = 'the page never settled';
    const at = await geometry(p);
    const unrecorded = await blockedBoxes(p);
    const clip = { x: 0, y: 0, width: at.width, height: at.height };
    await hideLauncher(p, true);
    const reference = blank(decode(await p.screenshot({ clip })), unrecorded);
    await hideLauncher(p, false);
    const taken = await p.evaluate(async () => {
      const snag = (
        window as unknown as { Snag: { _a: { replay: { take(): Promise<{ blob: Blob } | null> } } } }
      ).Snag;
      const take = await snag._a.replay.take();
      if (!take) return null;
      const bytes = new Uint8Array(await take.blob.arrayBuffer());
      let s = '';
      for (const b of bytes) s += String.fromCharCode(b);
      return btoa(s);
    });
    if (!taken) {
      row.note = 'no recording to take';
      return row;
    }
    const gz = Buffer.from(taken, 'base64');
    row.gzipKB = Math.round(gz.length / 102.4) / 10;
    const events = JSON.parse(gunzipSync(gz).toString('utf8')) as { timestamp: number }[];
    row.events = events.length;

    // The player, in a page of the same size, seeked to the recording's last moment.
    const r = await context.newPage();
    await r.setContent(
      `<!doctype html><html><head><style>${player.css}
html,body{margin:0;padding:0;overflow:hidden}.replayer-mouse,.replayer-mouse-tail{display:none!important}.replayer-wrapper iframe{border:0}</style></head>
<body><div id="root"></div></body></html>`,
    );
    await r.addScriptTag({ content: player.js });
    await r.evaluate((events) => {
      const w = window as unknown as {
        rrwebReplay: { Replayer: new (e: unknown[], o: object) => { pause(t?: number): void } };
      };
      const replayer = new w.rrwebReplay.Replayer(events, {
        root: document.getElementById('root'),
        mouseTail: false,
        showWarning: false,
        skipInactive: false,
      });
      const first = events[0]!.timestamp;
      const last = events[events.length - 1]!.timestamp;
      // Seeking applies the events strictly before the moment: 1 ms past the last one, so it counts.
      replayer.pause(last - first + 1);
    }, events);
    if (!(await settle(r, '.replayer-wrapper iframe'))) row.note = 'the replay never settled';
    const frame = r.locator('.replayer-wrapper iframe');
    const box = await frame.boundingBox();
    if (!box) {
      row.note = 'the player drew no frame';
      return row;
    }
    const played = await r.screenshot({ clip: { x: box.x, y: box.y, width: at.width, height: at.height } });
    const { percent, diff, size } = compare(reference, PNG.sync.write(blank(decode(played), unrecorded)));
    row.diff = Math.round(percent * 100) / 100;
    row.ok = percent <= replayFrameBudget.maxDiffPercent;
    if (percent === 100) row.note = `size ${size}`;
    if (diffDir) {
      mkdirSync(diffDir, { recursive: true });
      const base = join(diffDir, page.name.replace(/\W+/g, '-'));
      writeFileSync(`${base}-chromium.png`, PNG.sync.write(reference));
      writeFileSync(`${base}-replay.png`, PNG.sync.write(blank(decode(played), unrecorded)));
      if (diff) writeFileSync(`${base}-diff.png`, PNG.sync.write(diff));
      writeFileSync(`${base}-events.json`, JSON.stringify(events));
    }
    return row;
  } catch (error) {
    row.note = (error as Error).message.split('\n')[0] ?? 'failed';
    return row;
  } finally {
    await context.close();
  }
}

/** The median take by its diff (a take that drew nothing counts as the worst), with every take's figure. */
export function medianTake(takes: ReplayFrameRow[]): ReplayFrameRow {
  const worst = (r: ReplayFrameRow) => r.diff ?? Number.POSITIVE_INFINITY;
  const sorted = [...takes].sort((a, b) => worst(a) - worst(b));
  return { ...sorted[Math.floor((sorted.length - 1) / 2)]!, takes: takes.map((t) => t.diff) };
}

export async function replayFrameBench(names: string[] = []): Promise<ReplayFrameRow[]> {
  if (!existsSync(join(widgetDir, 'manifest.json')))
    execSync('npx tsx widget/build.ts', { stdio: 'inherit' });
  ensurePages();
  const pages = fidelityPages.filter((p) => names.length === 0 || names.includes(p.name));
  const server = await startFidelityServer(pages, 'localhost', 5000, { replay: { maskText: false } });
  const browser = await launchCustomerBrowser();
  const player = await replayerScript();
  const rows: ReplayFrameRow[] = [];
  try {
    for (const page of pages) {
      const takes: ReplayFrameRow[] = [];
      for (let i = 0; i < replayFrameBudget.takes; i++) {
        const dir = process.env.REPLAY_DIFF_DIR;
        takes.push(await measure(page, server, player, browser, dir && join(dir, `take-${i + 1}`)));
      }
      rows.push(medianTake(takes));
    }
  } finally {
    await browser.close();
    await server.close();
  }
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const rows = await replayFrameBench(process.argv.slice(2));
  console.table(rows.map((r) => ({ ...r, takes: r.takes.join(' / ') })));
  process.exit(rows.every((r) => r.ok) ? 0 : 1);
}
