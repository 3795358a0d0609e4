/**
 * What session replay costs a customer's page, as Lighthouse sees it (DESIGN.md section 7, docs/replay.md):
 * on real pages of the fidelity suite (fidelity-pages.ts), each loaded with the widget's install snippet,
 * once with the project's replay off and once on, Lighthouse's Total Blocking Time and Cumulative Layout
 * Shift (desktop preset, performance only, the median of `runs` runs each). Budget: TBT with replay on
 * within 50 ms of replay off, and layout shift unchanged.
 *
 * The recorder is loaded after the page is idle, so a well-behaved loader keeps it out of the window TBT
 * measures (first contentful paint to interactive): a regression here means it loads or records too early.
 *
 * Lighthouse has its own install (test/bench/lighthouse, about 180 MB with its dependencies), made on first
 * use like the fidelity pages', so `npm ci` of the project never pays for it. Chromium is the one the
 * browser tests use (CHROMIUM_PATH). Run alone: `npx tsx test/bench/replay-page.ts [runs]` (builds the
 * widget first when dist/widget is missing).
 */
import { execFileSync, execSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromiumPath } from '../support/browser';
import { median } from './capture';
import { ensurePages, type FidelityPage, fidelityPages } from './fidelity-pages';
import { startFidelityServer, widgetDir } from './fidelity-server';

const root = fileURLToPath(new URL('../..', import.meta.url));
const lighthouseDir = join(root, 'test', 'bench', 'lighthouse');

export const replayPageBudget = {
  /** TBT with replay on may exceed TBT with replay off by at most this much. */
  tbtSlackMs: 50,
  /**
   * Layout shift "unchanged": the same page loaded twice with nothing changed differs by up to about 0.003
   * (the launcher's arrival and font swaps land in different frames), so a difference up to 0.01, a tenth of
   * Google's "good" limit, counts as unchanged.
   */
  clsSlack: 0.01,
  /** Pages that need nothing from other hosts, so Lighthouse (which cannot answer them) sees them whole. */
  pages: ['sb-admin-2', 'creative', 'bulma-start'],
};

/** Installs Lighthouse from its lock unless the installed set is that lock's. */
function ensureLighthouse(): void {
  const lock = join(lighthouseDir, 'package-lock.json');
  const installed = join(lighthouseDir, 'node_modules', '.package-lock.json');
  if (existsSync(installed) && statSync(installed).mtimeMs >= statSync(lock).mtimeMs) return;
  console.log('replay-page: installing Lighthouse (test/bench/lighthouse, once)');
  execFileSync('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: lighthouseDir,
    stdio: 'inherit',
  });
}

interface LighthouseResult {
  lhr: { audits: Record<string, { numericValue?: number }> };
}
type RunLighthouse = (url: string, flags: object, config: object) => Promise<LighthouseResult | undefined>;

async function loadLighthouse() {
  ensureLighthouse();
  const from = (path: string) => import(pathToFileURL(join(lighthouseDir, 'node_modules', path)).href);
  const lighthouse = (await from('lighthouse/core/index.js')).default as RunLighthouse;
  const desktop = (await from('lighthouse/core/config/desktop-config.js')).default as object;
  const launcher = (await from('chrome-launcher/dist/index.js')) as {
    launch(o: {
      chromePath: string;
      chromeFlags: string[];
    }): Promise<{ port: number; kill(): Promise<void> }>;
  };
  return { lighthouse, desktop, launcher };
}

export interface ReplayPageRow {
  page: string;
  tbtOffMs: number;
  tbtOnMs: number;
  clsOff: number;
  clsOn: number;
  ok: boolean;
}

export async function replayPageBench(runs = 3): Promise<ReplayPageRow[]> {
  if (!existsSync(join(widgetDir, 'manifest.json')))
    execSync('npx tsx widget/build.ts', { stdio: 'inherit' });
  ensurePages();
  const { lighthouse, desktop, launcher } = await loadLighthouse();
  const pages = fidelityPages.filter((p) => replayPageBudget.pages.includes(p.name));
  const host = 'localhost';
  const off = await startFidelityServer(pages, host, 4800);
  const on = await startFidelityServer(pages, host, 4900, { replay: { maskText: false } });
  const chrome = await launcher.launch({
    chromePath: chromiumPath,
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'],
  });
  const measure = async (url: string) => {
    const tbt: number[] = [];
    const cls: number[] = [];
    for (let i = 0; i < runs; i++) {
      const result = await lighthouse(
        url,
        { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] },
        desktop,
      );
      const audits = result?.lhr.audits ?? {};
      tbt.push(audits['total-blocking-time']?.numericValue ?? Number.NaN);
      cls.push(audits['cumulative-layout-shift']?.numericValue ?? Number.NaN);
    }
    return { tbt: median(tbt), cls: median(cls) };
  };
  const rows: ReplayPageRow[] = [];
  try {
    for (const page of pages as FidelityPage[]) {
      const a = await measure(off.url(page));
      const b = await measure(on.url(page));
      rows.push({
        page: page.name,
        tbtOffMs: a.tbt,
        tbtOnMs: b.tbt,
        clsOff: a.cls,
        clsOn: b.cls,
        ok:
          b.tbt - a.tbt <= replayPageBudget.tbtSlackMs &&
          Math.abs(b.cls - a.cls) <= replayPageBudget.clsSlack,
      });
    }
  } finally {
    await chrome.kill();
    await off.close();
    await on.close();
  }
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const rows = await replayPageBench(Number(process.argv[2] ?? 3));
  console.table(rows);
  process.exit(rows.every((r) => r.ok) ? 0 : 1);
}
