/**
 * What every Lambda carries for the HTTP pipeline (runtime/http.ts): the health function is the pipeline
 * and four probes, so its bundle shows what the pipeline pulls in. It must not pull in the domains' zod
 * schemas (contracts/schemas.ts, triage.ts, messages.ts, tokens.ts and what they import): each of them is
 * startup time and bytes in every function (DESIGN.md section 7, `npx tsx test/bench/lambda.ts`).
 */
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { esbuildOptions } from '../../../lib/bundling';
import { handlerEntry } from '../../../lib/resources';
import { marks } from '../../bench/lambda-budget';

/** The bundle of `resource`, as the deployed build would bundle it. */
const bundle = (resource: string) =>
  build({
    ...esbuildOptions,
    entryPoints: [handlerEntry(resource)],
    outdir: 'out',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });

/** The project's own files in the bundle of `resource`. */
async function bundledFiles(resource: string): Promise<string[]> {
  const result = await bundle(resource);
  return Object.keys(result.metafile.inputs).filter((f) => f.startsWith('functions/'));
}

/** The minified size of `resource`'s bundle: its code, without the source map beside it. */
async function minifiedBytes(resource: string): Promise<number> {
  const result = await bundle(resource);
  return result.outputFiles.find((f) => f.path.endsWith('.mjs'))?.contents.byteLength ?? 0;
}

describe('the HTTP pipeline in every bundle', () => {
  it('health carries the pipeline and no domain schema', async () => {
    const files = await bundledFiles('health');
    expect(files).toContain('functions/runtime/http.ts');
    const contracts = files.filter((f) => f.startsWith('functions/contracts/'));
    for (const schemas of ['schemas', 'triage', 'messages', 'tokens', 'teams', 'sync', 'intake'])
      expect(contracts).not.toContain(`functions/contracts/${schemas}.ts`);
  }, 30_000);
});

describe('the next marks of the smallest functions (test/bench/lambda-budget.ts)', () => {
  for (const [resource, mark] of Object.entries(marks))
    it(`${resource} is at most ${mark / 1024} KB minified`, async () => {
      expect(await minifiedBytes(resource)).toBeLessThanOrEqual(mark);
    }, 30_000);
});
