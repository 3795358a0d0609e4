/**
 * Builds the widget bundles into dist/widget (served at /widget/*):
 * - app.<hash>.<language>.js: the lazily loaded app, one file per widget language (each holds only its
 *   own texts: a visitor downloads one language, not six), content-hashed so it can be cached for a year;
 * - loader.js: the small loader, with the app file name pattern baked in (`app.<hash>.*.js`, the loader
 *   puts the project's language in place of `*`; served with a short cache);
 * - app.<hash>.steps.js and app.<hash>.recorder.js: the activity chunks the loader fetches once the page is
 *   idle (steps to reproduce on every plan; the recorder, steps included, where the project records
 *   sessions), under the app's pattern so the loader holds one name (its bytes are counted);
 * - manifest.json: {"app", "apps", "loader", "steps", "recorder"}; `app` is the largest language file (what
 *   the bench measures).
 * Both target ES2019 for older browsers on customers' sites.
 */
import { createHash } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, type Plugin } from 'esbuild';
import { widgetLanguages } from '#contracts/schemas';

const here = fileURLToPath(new URL('.', import.meta.url));
const outdir = join(here, '..', 'dist', 'widget');
const i18nDir = join(here, 'src', 'i18n');

const common = {
  bundle: true,
  minify: true,
  format: 'iife',
  target: 'es2019',
  platform: 'browser',
  legalComments: 'none',
  logLevel: 'warning',
} as const;

/** Swaps widget/src/i18n/bundled.ts (all languages) for a module holding `language` only. */
function oneLanguage(language: string): Plugin {
  return {
    name: 'snag-one-language',
    setup(b) {
      b.onResolve({ filter: /^\.\/bundled$/ }, (args) =>
        args.resolveDir === i18nDir ? { path: language, namespace: 'snag-language' } : undefined,
      );
      b.onLoad({ filter: /.*/, namespace: 'snag-language' }, () => ({
        contents: `import m from './${language}'; export const languages = { ${language}: m };`,
        resolveDir: i18nDir,
        loader: 'ts',
      }));
    },
  };
}

export interface WidgetManifest {
  app: string;
  apps: Record<string, string>;
  loader: string;
  steps: string;
  recorder: string;
}

export async function buildWidget(): Promise<WidgetManifest> {
  await rm(outdir, { recursive: true, force: true });
  await mkdir(outdir, { recursive: true });

  const codes = await Promise.all(
    widgetLanguages.map(async (language) => {
      const result = await build({
        ...common,
        entryPoints: [join(here, 'src', 'app.ts')],
        write: false,
        outfile: 'app.js',
        plugins: [oneLanguage(language)],
      });
      return [language, result.outputFiles[0]!.contents] as const;
    }),
  );
  const chunks = await Promise.all(
    (['steps', 'recorder'] as const).map(async (name) => {
      const result = await build({
        ...common,
        entryPoints: [join(here, 'src', `${name}.ts`)],
        write: false,
        outfile: `${name}.js`,
      });
      return [name, result.outputFiles[0]!.contents] as const;
    }),
  );
  // One hash over all files: the loader knows a single pattern, and any change renames every file.
  const hash = createHash('sha256');
  for (const [, code] of [...codes, ...chunks]) hash.update(code);
  const tag = hash.digest('hex').slice(0, 8).toUpperCase();
  const apps: Record<string, string> = {};
  let largest = { name: '', bytes: -1 };
  for (const [language, code] of codes) {
    const name = `app.${tag}.${language}.js`;
    apps[language] = name;
    await writeFile(join(outdir, name), code);
    const bytes = gzipSync(code, { level: 9 }).length;
    if (bytes > largest.bytes) largest = { name, bytes };
  }

  for (const [name, code] of chunks) await writeFile(join(outdir, `app.${tag}.${name}.js`), code);

  await build({
    ...common,
    entryPoints: [join(here, 'src', 'loader.ts')],
    outfile: join(outdir, 'loader.js'),
    define: {
      __SNAG_APP__: JSON.stringify(`app.${tag}.*.js`),
    },
  });

  const manifest: WidgetManifest = {
    app: largest.name,
    apps,
    loader: 'loader.js',
    steps: `app.${tag}.steps.js`,
    recorder: `app.${tag}.recorder.js`,
  };
  await writeFile(join(outdir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const manifest = await buildWidget();
  console.log(
    `widget: dist/widget/${manifest.loader}, dist/widget/app.*.js (${Object.keys(manifest.apps).join(', ')})`,
  );
}
