/**
 * Screenshot budget (DESIGN.md section 7): the viewport capture of a generated 3,000-element page in
 * headless Chromium, median of 10 runs after a warm-up, with html2canvas on the same page in the same
 * run, and the ratio. Also the gzip size of the capture module with its library.
 * Run directly: `npx tsx test/bench/capture.ts`; `npm run bench` includes it.
 *
 * The capture module is bundled as test/support/capture-bundle.ts describes; the page and its images come
 * from a local HTTP server.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { launchBrowser } from '../support/browser';
import { captureBundle } from '../support/capture-bundle';
import { benchImages, capturePage } from './capture-page';

const require_ = (await import('node:module')).createRequire(import.meta.url);

export const captureBudget = { medianMs: 300, minRatio: 10, runs: 10 };

export interface CaptureResult {
  elements: number;
  snagMs: number[];
  html2canvasMs: number[];
  snagMedianMs: number;
  html2canvasMedianMs: number;
  ratio: number;
  /** The capture module and modern-screenshot, minified, gzip bytes. */
  bundleGzipBytes: number;
}

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

export async function captureBench(runs = captureBudget.runs): Promise<CaptureResult> {
  const html = capturePage(3000);
  const images = benchImages();
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const image = images.get(path);
    if (image)
      res.writeHead(200, { 'content-type': 'image/png', 'cache-control': 'max-age=3600' }).end(image);
    else res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const bundle = await captureBundle();
  const html2canvas = readFileSync(
    join(dirname(require_.resolve('html2canvas/package.json')), 'dist', 'html2canvas.min.js'),
    'utf8',
  );
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(url, { waitUntil: 'load' });
    await page.addScriptTag({ content: bundle });
    await page.addScriptTag({ content: html2canvas });
    // Scrolled into the page, so both tools draw a part that is neither the top nor the bottom.
    await page.evaluate(() => window.scrollTo(0, 2400));
    const elements = await page.evaluate(() => document.body.getElementsByTagName('*').length);
    const time = (tool: 'snag' | 'html2canvas') =>
      page.evaluate(
        async ({ tool, runs }) => {
          const w = window as unknown as {
            __snagCapture: { captureViewport(o: { exclude: Element[] }): Promise<unknown> };
            html2canvas(el: Element, o: object): Promise<unknown>;
          };
          const times: number[] = [];
          // Run 0 is a warm-up: first-use costs (image decoding, font checks) are not the steady state.
          // (No helper functions in here: tsx would wrap them in a `__name` the page does not have.)
          for (let i = 0; i <= runs; i++) {
            const t = performance.now();
            await (tool === 'snag'
              ? w.__snagCapture.captureViewport({ exclude: [] })
              : w.html2canvas(document.body, {
                  x: window.scrollX,
                  y: window.scrollY,
                  width: window.innerWidth,
                  height: window.innerHeight,
                  scale: window.devicePixelRatio,
                  logging: false,
                }));
            if (i > 0) times.push(performance.now() - t);
          }
          return times;
        },
        { tool, runs },
      );
    const snagMs = await time('snag');
    const html2canvasMs = await time('html2canvas');
    const snagMedianMs = median(snagMs);
    const html2canvasMedianMs = median(html2canvasMs);
    return {
      elements,
      snagMs,
      html2canvasMs,
      snagMedianMs,
      html2canvasMedianMs,
      ratio: html2canvasMedianMs / snagMedianMs,
      bundleGzipBytes: gzipSync(bundle, { level: 9 }).length,
    };
  } finally {
    await browser.close();
    server.close();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const r = await captureBench();
  const ms = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(' ');
  console.log(
    `page: ${r.elements} elements; capture module + library: ${(r.bundleGzipBytes / 1024).toFixed(1)} KB gzip`,
  );
  console.log(`snag        median ${r.snagMedianMs.toFixed(0)} ms  (${ms(r.snagMs)})`);
  console.log(`html2canvas median ${r.html2canvasMedianMs.toFixed(0)} ms  (${ms(r.html2canvasMs)})`);
  console.log(`ratio ${r.ratio.toFixed(1)}x`);
  const ok = r.snagMedianMs <= captureBudget.medianMs && r.ratio >= captureBudget.minRatio;
  console.log(ok ? 'within budget' : 'OVER BUDGET');
  if (!ok) process.exitCode = 1;
}
