/**
 * The one set of esbuild options for every Lambda bundle. CDK's NodejsFunction bundles with them
 * (`nodejsBundling`), and the bench (test/bench/lambda.ts) builds with exactly the same options
 * (`esbuildOptions`), so the sizes and init times it reports are those of the deployed code.
 */
import { type BundlingOptions, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';

/** Node.js major of the Lambda runtime (lib/stacks/lambda.ts picks the matching `Runtime`). */
export const nodeMajor = 24;

/**
 * ESM output cannot `require`, but some CommonJS dependencies call it for Node built-ins; the banner
 * gives the module a real `require` (and the CommonJS path globals) built from its own URL.
 */
const esmRequireBanner = [
  "import { createRequire as __snagCreateRequire } from 'node:module';",
  "import { fileURLToPath as __snagFileURLToPath } from 'node:url';",
  "import { dirname as __snagDirname } from 'node:path';",
  'const require = __snagCreateRequire(import.meta.url);',
  'const __filename = __snagFileURLToPath(import.meta.url);',
  'const __dirname = __snagDirname(__filename);',
].join(' ');

/** The AWS SDK v3 ships with the Lambda Node.js runtime; bundling it would only add size and init time. */
const external = ['@aws-sdk/*'];

/** Prefer packages' ESM entry points so tree shaking works. */
const mainFields = ['module', 'main'];

/** Options for `esbuild.build` (the bench); `entryPoints` and `outdir`/`outfile` come from the caller. */
export const esbuildOptions = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: `node${nodeMajor}`,
  minify: true,
  sourcemap: true,
  external,
  mainFields,
  banner: { js: esmRequireBanner },
  outExtension: { '.js': '.mjs' },
} as const;

/** The same options in NodejsFunction's vocabulary. Bundling runs locally with the installed esbuild. */
export const nodejsBundling = (): BundlingOptions => ({
  format: OutputFormat.ESM,
  target: esbuildOptions.target,
  minify: esbuildOptions.minify,
  sourceMap: esbuildOptions.sourcemap,
  externalModules: [...external],
  mainFields: [...mainFields],
  banner: esmRequireBanner,
  forceDockerBundling: false,
});
