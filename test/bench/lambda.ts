/**
 * Lambda bundle budget (DESIGN.md section 7: each bundle <= 500 KB minified, module init <= 150 ms):
 * bundles every Lambda entry with the deployed esbuild options (lib/bundling.ts) and times a cold import
 * of each bundle in a fresh `node` process. Run directly with `npx tsx test/bench/lambda.ts` (`--sizes` to
 * skip the init times, `--explain` for where each bundle's bytes come from).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { queueNames } from '#contracts/manifest';
import { queueDecls, scheduleDecls } from '../../functions/manifests';
import { esbuildOptions } from '../../lib/bundling';
import { fromRoot } from '../../lib/paths';
import { consumerEntry, deadLetterEntry, handlerEntry, scheduleEntry } from '../../lib/resources';
import { deployedResources } from '../../lib/stacks/api';
import { budget, marks } from './lambda-budget';

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

/**
 * Where a bundle's bytes come from: the minified bytes of each package (`zod`, `@middy/core`) and of each
 * folder of our own (`functions/contracts`), largest first, from esbuild's metafile.
 */
export function attribution(metafile: Metafile): [string, number][] {
  const output = Object.values(metafile.outputs).find((o) => o.entryPoint);
  const parts = new Map<string, number>();
  for (const [file, { bytesInOutput }] of Object.entries(output?.inputs ?? {})) {
    const part =
      /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file)?.[1] ?? file.split('/').slice(0, 2).join('/');
    parts.set(part, (parts.get(part) ?? 0) + bytesInOutput);
  }
  return [...parts].sort((a, b) => b[1] - a[1]);
}

/**
 * Every Lambda bundled and measured. `time: false` skips the cold imports (sizes only, in seconds);
 * `explain` receives each bundle's attribution.
 */
export async function lambdaBundles(
  options: { time?: boolean; explain?: (name: string, parts: [string, number][]) => void } = {},
): Promise<LambdaBundle[]> {
  // Inside the repository, so the bundles resolve the external @aws-sdk/* packages like the runtime does.
  const parent = fromRoot('node_modules/.cache');
  mkdirSync(parent, { recursive: true });
  const dir = mkdtempSync(join(parent, 'snag-lambda-bench-'));
  try {
    const env = await fakeEnv();
    const results: LambdaBundle[] = [];
    for (const { name, entry } of entries()) {
      const outfile = join(dir, `${name.replace(':', '-')}.mjs`);
      const { metafile } = await build({
        ...esbuildOptions,
        entryPoints: [fromRoot(entry)],
        outfile,
        metafile: true,
        logLevel: 'error',
      });
      options.explain?.(name, attribution(metafile));
      const ms = options.time === false ? Number.NaN : initMs(outfile, env);
      results.push({ name, minifiedBytes: statSync(outfile).size, initMs: ms });
    }
    return results;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `--sizes`: no init times. `--explain`: each bundle's packages and folders of 1 KB or more. */
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const kb = (bytes: number) => (bytes / 1024).toFixed(1);
  const explain = (name: string, parts: [string, number][]) =>
    console.log(
      `${name}: ${parts
        .filter(([, bytes]) => bytes >= 1024)
        .map(([part, bytes]) => `${part} ${kb(bytes)}`)
        .join(', ')}`,
    );
  const rows = await lambdaBundles({
    time: !args.includes('--sizes'),
    explain: args.includes('--explain') ? explain : undefined,
  });
  console.table(
    rows.map((r) => ({
      lambda: r.name,
      'minified KB': kb(r.minifiedBytes),
      'init ms': Number.isNaN(r.initMs) ? '' : r.initMs.toFixed(1),
      // Without init times (--sizes), only the size decides.
      'within budget': r.minifiedBytes <= budget.minifiedBytes && !(r.initMs > budget.initMs) ? 'yes' : 'NO',
      mark:
        r.name in marks
          ? `${marks[r.name]! / 1024} KB: ${r.minifiedBytes <= marks[r.name]! ? 'yes' : 'NO'}`
          : '',
    })),
  );
  if (rows.some((r) => r.minifiedBytes > budget.minifiedBytes || r.initMs > budget.initMs))
    process.exitCode = 1;
}
