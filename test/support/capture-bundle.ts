/**
 * The capture module (widget/src/capture) as one script a test page can load: bundled with esbuild as
 * widget/build.ts bundles the app (minified, ES2019), exposing `window.__snagCapture`. Used by the
 * capture bench and the capture e2e test, which exercise the module without the widget UI.
 */
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('../..', import.meta.url));

export async function captureBundle(minify = true): Promise<string> {
  const out = await build({
    stdin: {
      contents:
        "import { capture } from './widget/src/capture/index'; (window as any).__snagCapture = capture;",
      resolveDir: root,
      loader: 'ts',
    },
    bundle: true,
    minify,
    format: 'iife',
    target: 'es2019',
    platform: 'browser',
    legalComments: 'none',
    write: false,
    logLevel: 'warning',
  });
  return out.outputFiles[0]!.text;
}
