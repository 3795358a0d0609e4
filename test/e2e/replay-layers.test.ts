/**
 * The replay draws a page's layered backgrounds as the page does (widget/src/activity/css-layers.ts):
 * a hero of a gradient over a photo, `background-size: cover`, is recorded by the widget's recorder
 * (widget/src/activity/recorder.ts, bundled with esbuild as the widget's build does) in Chromium and played
 * by rrweb's replayer, as the dashboard plays it; the replayed element must be laid out as the page's
 * own. The sheets come each way rrweb reads them: a `<link>`, a `<style>` (inside `@media`), a `<style>`
 * added while recording, and a shadow root's adopted sheet; and a `<style>` of several text nodes added while
 * recording keeps its colours. No stack is needed.
 */
import { gunzipSync } from 'node:zlib';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CustomerSite,
  customerHosts,
  launchCustomerBrowser,
  startCustomerSite,
} from '../support/customer-site';
import { png } from '../support/png';

let browser: Browser;
let site: CustomerSite;
let bundle: string;

/** Two layers, their size, position and repeat given once for both (as startbootstrap-creative's hero). */
const layered = (image: string) =>
  `background: linear-gradient(rgba(92, 77, 66, 0.8), rgba(92, 77, 66, 0.8)), url("${image}");
  background-position: center; background-repeat: no-repeat; background-size: cover;`;

const customerHtml = `<!doctype html><html><head><meta charset="utf-8">
<link rel="stylesheet" href="/css/site.css">
<style>
body{margin:0}
div{height:300px;margin:10px}
@media (min-width: 600px) { #inline { ${layered('css/img/photo.png')} } }
</style></head><body>
<div id="linked"></div><div id="inline"></div><div id="host"></div><div id="late"></div>
<script src="/recorder.js"></script>
<script>
const sheet = new CSSStyleSheet();
sheet.replaceSync(':host { display: block; height: 300px; ${layered('/css/img/photo.png').replace(/\n/g, ' ')} }');
document.getElementById('host').attachShadow({ mode: 'open' }).adoptedStyleSheets = [sheet];
window.__recorder = window.__snag.startRecorder({ maskText: false });
</script>
</body></html>`;

const ids = ['linked', 'inline', 'host', 'late'] as const;
/** What the layout of a layered background depends on, per layer. */
const props = [
  'backgroundSize',
  'backgroundPosition',
  'backgroundRepeat',
  'backgroundImage',
  'color',
] as const;

function layout(page: Page, doc: 'page' | 'replay') {
  return page.evaluate(
    ({ ids, props, doc }) => {
      const d =
        doc === 'page'
          ? document
          : (document.querySelector('.replayer-wrapper iframe') as HTMLIFrameElement).contentDocument!;
      return Object.fromEntries(
        ids.map((id) => {
          const style = getComputedStyle(d.getElementById(id)!);
          return [id, props.map((p) => style[p].replace(/http:\/\/[^/]+/g, ''))];
        }),
      );
    },
    { ids: [...ids], props: [...props], doc },
  );
}

beforeAll(async () => {
  const out = await build({
    stdin: {
      contents:
        "import { startRecorder } from './widget/src/activity/recorder'; import { Replayer } from '@rrweb/replay'; (window as any).__snag = { startRecorder, Replayer };",
      resolveDir: process.cwd(),
      loader: 'ts',
    },
    bundle: true,
    format: 'iife',
    target: 'es2019',
    write: false,
    logLevel: 'warning',
  });
  bundle = out.outputFiles[0]!.text;
  [browser, site] = await Promise.all([launchCustomerBrowser(), startCustomerSite()]);
  site.page('/', customerHtml);
  site.file('/recorder.js', bundle, { 'content-type': 'text/javascript' });
  site.file('/css/site.css', `#linked { ${layered('img/photo.png')} }`, { 'content-type': 'text/css' });
  site.file('/css/img/photo.png', png(40, 20, [250, 200, 0]), { 'content-type': 'image/png' });
});

afterAll(async () => {
  await browser?.close();
  await site?.close();
});

describe("a page's layered backgrounds in its replay", () => {
  it("Chromium's CSSOM text still drops the shared size for the second layer (why css-layers.ts exists)", async () => {
    const page = await browser.newPage();
    try {
      await page.setContent(`<style>#a { ${layered('x.png')} }</style>`);
      const rule = await page.evaluate(() => {
        const r = document.styleSheets[0]!.cssRules[0] as CSSStyleRule;
        return { text: r.cssText, size: r.style.getPropertyValue('background-size') };
      });
      // The longhand is right; the text gives `cover` to the gradient only. When this fails, Chromium
      // writes the layers fully and the repair has nothing left to do.
      expect(rule.size).toBe('cover');
      expect(rule.text).toMatch(/cover[^,]*, url\("x\.png"\); \}$/);
    } finally {
      await page.close();
    }
  });

  it('plays each layer at the size, position and repeat the page gave it', async () => {
    const context = await browser.newContext({ viewport: { width: 1000, height: 800 } });
    try {
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(site.url(customerHosts.shop, '/'), { waitUntil: 'load' });
      // A sheet that arrives while recording: rrweb serialises it as a mutation.
      await page.evaluate((css) => {
        const style = document.createElement('style');
        style.textContent = `#late { ${css} }`;
        document.head.append(style);
        // A template's style element, several text nodes (as Lit renders rapidoc's theme): rrweb marks
        // where the second begins inside the colour `#666`.
        const theme = document.createElement('style');
        theme.append('#late { --c: #6', '66; color: var(--c); }');
        document.head.append(theme);
      }, layered('/css/img/photo.png'));
      await page.waitForTimeout(300);
      const original = await layout(page, 'page');
      expect(original.linked).toEqual([
        'cover, cover',
        '50% 50%, 50% 50%',
        'no-repeat, no-repeat',
        'linear-gradient(rgba(92, 77, 66, 0.8), rgba(92, 77, 66, 0.8)), url("/css/img/photo.png")',
        'rgb(0, 0, 0)',
      ]);
      for (const id of ['inline', 'host'] as const) expect(original[id]).toEqual(original.linked);
      expect(original.late).toEqual([...original.linked!.slice(0, 4), 'rgb(102, 102, 102)']);

      const gz = await page.evaluate(async () => {
        const w = window as unknown as { __recorder: { take(): Promise<{ blob: Blob } | null> } };
        const taken = await w.__recorder.take();
        return taken ? [...new Uint8Array(await taken.blob.arrayBuffer())] : null;
      });
      expect(gz).not.toBeNull();
      const events = JSON.parse(gunzipSync(Buffer.from(gz!)).toString('utf8')) as { timestamp: number }[];

      const replay = await context.newPage();
      await replay.setContent('<!doctype html><div id="root"></div>');
      await replay.addScriptTag({ content: bundle });
      await replay.evaluate((events) => {
        const w = window as unknown as {
          __snag: { Replayer: new (e: unknown[], o: object) => { pause(t?: number): void } };
        };
        const player = new w.__snag.Replayer(events, {
          root: document.getElementById('root'),
          showWarning: false,
        });
        // rrweb applies, when seeking, the events strictly before the moment: 1 ms past the last one.
        player.pause(events[events.length - 1]!.timestamp - events[0]!.timestamp + 1);
      }, events);
      await replay.waitForFunction(() => {
        const frame = document.querySelector('.replayer-wrapper iframe') as HTMLIFrameElement | null;
        return frame?.contentDocument?.getElementById('late') != null;
      });
      expect(await layout(replay, 'replay')).toEqual(original);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
