/**
 * The session recorder's budgets (issue 33, DESIGN.md section 7), on the built recorder chunk
 * (dist/widget, `app.<hash>.recorder.js`) in headless Chromium:
 * - its size, gzip;
 * - on the capture bench's generated 3,000-element page changing 50 nodes every 100 ms (each tick adds 50
 *   list items and removes the 50 oldest, so the page keeps its size), for 30 s: the CPU the recording
 *   costs, CDP `Performance.getMetrics` ScriptDuration with replay on minus off, as % of one core;
 * - one full snapshot of that page (a pause and resume: rrweb takes it synchronously), median of 5;
 * - 60 s of that activity as the report would attach it (the ring's two checkouts, gzip), scaled to
 *   60 s from the span it covers.
 * Run directly: `npx tsx test/bench/replay.ts` (after `npm run build`); `npm run bench` includes it.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { distDir, launchBrowser } from '../support/browser';
import { median } from './capture';
import { benchImages, capturePage } from './capture-page';

export const replayBudget = {
  chunkGzipBytes: 30 * 1024,
  cpuPercent: 10,
  fullSnapshotMs: 300,
  sixtySecondsGzipBytes: 1024 * 1024,
};

export interface ReplayBenchResult {
  elements: number;
  chunkGzipBytes: number;
  /** The steps chunk (every plan where replay is off), gzip bytes. */
  stepsGzipBytes: number;
  /** ScriptDuration over the 30 s, seconds. */
  scriptOffS: number;
  scriptOnS: number;
  cpuPercent: number;
  fullSnapshotMs: number[];
  fullSnapshotMedianMs: number;
  /** What `take()` packed after about 60 s: gzip bytes, the span it covers, and the bytes per 60 s. */
  packedBytes: number;
  packedSeconds: number;
  sixtySecondsBytes: number;
  stopped: string | null;
}

/** Each 100 ms: 50 new items into a live list, the 50 oldest out (the bench's "50 nodes every 100 ms"). */
const mutator = `window.__mutate = () => {
  const feed = document.createElement('ul');
  feed.id = 'feed';
  document.body.prepend(feed);
  let n = 0;
  setInterval(() => {
    for (let i = 0; i < 50; i++) {
      const li = document.createElement('li');
      li.textContent = 'Order ' + (++n) + ' shipped to studio ' + (n % 97);
      feed.append(li);
    }
    while (feed.children.length > 100) feed.firstElementChild.remove();
  }, 100);
};`;

const RUN_MS = 30_000;

async function scriptSeconds(page: Page): Promise<() => Promise<number>> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  return async () => {
    const { metrics } = await cdp.send('Performance.getMetrics');
    return metrics.find((m) => m.name === 'ScriptDuration')!.value;
  };
}

export async function replayBench(): Promise<ReplayBenchResult> {
  const manifest = JSON.parse(readFileSync(join(distDir, 'widget', 'manifest.json'), 'utf8')) as {
    recorder: string;
    steps: string;
  };
  const chunk = readFileSync(join(distDir, 'widget', manifest.recorder));
  const steps = readFileSync(join(distDir, 'widget', manifest.steps));
  const html = capturePage(3000);
  const images = benchImages();
  const server = createServer((req, res) => {
    const image = images.get(new URL(req.url ?? '/', 'http://x').pathname);
    if (image) res.writeHead(200, { 'content-type': 'image/png' }).end(image);
    else res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const browser = await launchBrowser();

  /** The page mutating for RUN_MS, with or without the recorder; ScriptDuration over that time. */
  const run = async (replay: boolean) => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(url, { waitUntil: 'load' });
    await page.addScriptTag({ content: mutator });
    if (replay) {
      // What the loader leaves for the chunk: its early queue and the configuration with `replay`.
      await page.evaluate(() => {
        (window as { Snag?: unknown }).Snag = { _e: [], _c: { replay: { maskText: false } } };
      });
      await page.addScriptTag({ content: chunk.toString('utf8') });
      await page.waitForFunction(() => window.Snag?._a?.replay?.has() === true);
    }
    const script = await scriptSeconds(page);
    const before = await script();
    await page.evaluate(() => (window as unknown as { __mutate(): void }).__mutate());
    await page.waitForTimeout(RUN_MS);
    return { page, seconds: (await script()) - before };
  };

  try {
    const off = await run(false);
    const elements = await off.page.evaluate(() => document.body.getElementsByTagName('*').length);
    await off.page.close();
    const on = await run(true);
    // On to just under 60 s of activity: the ring then holds two checkouts, 0–30 s and 30–59 s.
    await on.page.waitForTimeout(29_000);
    const packed = await on.page.evaluate(async () => {
      const take = await window.Snag!._a!.replay!.take();
      return (
        take && { bytes: take.blob.size, start: take.start, end: take.end, stopped: take.stopped ?? null }
      );
    });
    if (!packed) throw new Error('the recorder packed nothing');
    // A full snapshot of the busy page: resume records anew and rrweb snapshots synchronously.
    const fullSnapshotMs = await on.page.evaluate(() => {
      const replay = window.Snag!._a!.replay!;
      const times: number[] = [];
      for (let i = 0; i < 5; i++) {
        replay.pause();
        const t = performance.now();
        replay.resume();
        times.push(performance.now() - t);
      }
      return times;
    });
    await on.page.close();
    const packedSeconds = (packed.end - packed.start) / 1000;
    return {
      elements,
      chunkGzipBytes: gzipSync(chunk, { level: 9 }).length,
      stepsGzipBytes: gzipSync(steps, { level: 9 }).length,
      scriptOffS: off.seconds,
      scriptOnS: on.seconds,
      cpuPercent: ((on.seconds - off.seconds) / (RUN_MS / 1000)) * 100,
      fullSnapshotMs,
      fullSnapshotMedianMs: median(fullSnapshotMs),
      packedBytes: packed.bytes,
      packedSeconds,
      sixtySecondsBytes: Math.round((packed.bytes * 60) / Math.max(packedSeconds, 1)),
      stopped: packed.stopped,
    };
  } finally {
    await browser.close();
    server.close();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const r = await replayBench();
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  console.log(`page: ${r.elements} elements, 50 nodes every 100 ms`);
  console.log(`recorder chunk: ${kb(r.chunkGzipBytes)} gzip (budget ${kb(replayBudget.chunkGzipBytes)})`);
  console.log(`steps chunk: ${kb(r.stepsGzipBytes)} gzip`);
  console.log(
    `CPU over 30 s: ScriptDuration on ${r.scriptOnS.toFixed(2)} s, off ${r.scriptOffS.toFixed(2)} s: ${r.cpuPercent.toFixed(1)} % of one core (budget ${replayBudget.cpuPercent} %)`,
  );
  console.log(
    `full snapshot: median ${r.fullSnapshotMedianMs.toFixed(0)} ms (${r.fullSnapshotMs.map((x) => x.toFixed(0)).join(' ')}; budget ${replayBudget.fullSnapshotMs} ms)`,
  );
  console.log(
    `packed: ${kb(r.packedBytes)} gzip for ${r.packedSeconds.toFixed(1)} s, ${kb(r.sixtySecondsBytes)} per 60 s (budget ${kb(replayBudget.sixtySecondsGzipBytes)})${r.stopped ? `; stopped: ${r.stopped}` : ''}`,
  );
  const ok =
    r.chunkGzipBytes <= replayBudget.chunkGzipBytes &&
    r.cpuPercent <= replayBudget.cpuPercent &&
    r.fullSnapshotMedianMs <= replayBudget.fullSnapshotMs &&
    r.sixtySecondsBytes <= replayBudget.sixtySecondsGzipBytes;
  console.log(ok ? 'within budget' : 'OVER BUDGET');
  if (!ok) process.exitCode = 1;
}
