/**
 * Builds the two widget bundles into dist/widget (served at /widget/*):
 * - app.<hash>.js: the lazily loaded app, content-hashed so it can be cached for a year;
 * - loader.js: the small loader, with the current app file name baked in (served with a short cache);
 * - manifest.json: {"app", "loader"}, so the server can point at the current app.
 * Both target ES2019 for older browsers on customers' sites.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = fileURLToPath(new URL('.', import.meta.url));
const outdir = join(here, '..', 'dist', 'widget');

const common = {
  bundle: true,
  minify: true,
  format: 'iife',
  target: 'es2019',
  platform: 'browser',
  legalComments: 'none',
  logLevel: 'warning',
} as const;

export async function buildWidget(): Promise<{ app: string; loader: string }> {
  await rm(outdir, { recursive: true, force: true });
  await mkdir(outdir, { recursive: true });

  const app = await build({
    ...common,
    entryPoints: { app: join(here, 'src', 'app.ts') },
    outdir,
    entryNames: '[name].[hash]',
    metafile: true,
  });
  const appFile = Object.keys(app.metafile.outputs).find((f) => f.endsWith('.js'));
  if (!appFile) throw new Error('widget app bundle missing from esbuild output');
  const appName = basename(appFile);

  await build({
    ...common,
    entryPoints: [join(here, 'src', 'loader.ts')],
    outfile: join(outdir, 'loader.js'),
    define: { __SNAG_APP__: JSON.stringify(appName) },
  });

  const manifest = { app: appName, loader: 'loader.js' };
  await writeFile(join(outdir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const manifest = await buildWidget();
  console.log(`widget: dist/widget/${manifest.loader}, dist/widget/${manifest.app}`);
}
