/**
 * Lambda bundle budget (DESIGN.md section 7: each bundle <= 500 KB minified, module init <= 150 ms):
 * bundles every Lambda entry with the deployed esbuild options (lib/bundling.ts) and times a cold import
 * of each bundle in a fresh `node` process. Run directly with `npx tsx test/bench/lambda.ts`.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { queueNames } from '#contracts/manifest';
import { queueDecls, scheduleDecls } from '../../functions/manifests';
import { esbuildOptions } from '../../lib/bundling';
import { fromRoot } from '../../lib/paths';
import { consumerEntry, deadLetterEntry, handlerEntry, scheduleEntry } from '../../lib/resources';
import { deployedResources } from '../../lib/stacks/api';

export const budget = { minifiedBytes: 500 * 1024, initMs: 150 };

export interface LambdaBundle {
  name: string;
  minifiedBytes: number;
  initMs: number;
}

/**
 * Every deployed Lambda: one per resource with deployed routes, plus the queue consumers, the dead-letter
 * consumers of the queues that declare one, and the schedules.
 */
const entries = (): { name: string; entry: string }[] => [
  ...deployedResources().map((r) => ({ name: r, entry: handlerEntry(r) })),
  ...queueNames.map((q) => ({ name: `consumer:${q}`, entry: consumerEntry(q) })),
  ...queueNames
    .filter((q) => queueDecls[q].deadLetter)
    .map((q) => ({ name: `dlq:${q}`, entry: deadLetterEntry(q) })),
  ...Object.keys(scheduleDecls).map((n) => ({ name: `schedule:${n}`, entry: scheduleEntry(n) })),
];

/** The unit tests' fake configuration (test/support/unit-env.ts), without changing this process's env. */
async function fakeEnv(): Promise<NodeJS.ProcessEnv> {
  const saved = { ...process.env };
  // A URL, not a specifier: the file is a script with no exports, run for its side effect on process.env.
  await import(new URL('../support/unit-env.ts', import.meta.url).href);
  const env = { ...process.env };
  for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
  Object.assign(process.env, saved);
  return env;
}

/** Imports the bundle once in a new process and prints how long the import (module init) took. */
const timeImport = `
const t0 = performance.now();
const mod = await import(process.argv[1]);
const ms = performance.now() - t0;
if (typeof mod.handler !== 'function') throw new Error('no handler export');
process.stdout.write(String(ms));
`;

function initMs(file: string, env: NodeJS.ProcessEnv, runs = 7): number {
  const times = Array.from({ length: runs }, () =>
    Number(
      execFileSync(process.execPath, ['--input-type=module', '-e', timeImport, pathToFileURL(file).href], {
        env,
      }),
    ),
  ).sort((a, b) => a - b);
  return times[Math.floor(runs / 2)]!;
}

export async function lambdaBundles(): Promise<LambdaBundle[]> {
  // Inside the repository, so the bundles resolve the external @aws-sdk/* packages like the runtime does.
  const parent = fromRoot('node_modules/.cache');
  mkdirSync(parent, { recursive: true });
  const dir = mkdtempSync(join(parent, 'snag-lambda-bench-'));
  try {
    const env = await fakeEnv();
    const results: LambdaBundle[] = [];
    for (const { name, entry } of entries()) {
      const outfile = join(dir, `${name.replace(':', '-')}.mjs`);
      await build({ ...esbuildOptions, entryPoints: [fromRoot(entry)], outfile, logLevel: 'error' });
      results.push({ name, minifiedBytes: statSync(outfile).size, initMs: initMs(outfile, env) });
    }
    return results;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const rows = await lambdaBundles();
  console.table(
    rows.map((r) => ({
      lambda: r.name,
      'minified KB': (r.minifiedBytes / 1024).toFixed(1),
      'init ms': r.initMs.toFixed(1),
      'within budget': r.minifiedBytes <= budget.minifiedBytes && r.initMs <= budget.initMs ? 'yes' : 'NO',
    })),
  );
  if (rows.some((r) => r.minifiedBytes > budget.minifiedBytes || r.initMs > budget.initMs))
    process.exitCode = 1;
}
