/**
 * Front-end budgets of DESIGN.md section 7, measured on the built output (`npm run build`):
 * dashboard initial JS (entry scripts of dist/web/index.html, their modulepreloads and everything they
 * import statically, plus the larger language catalogue, which the first render waits for; never the lazy
 * screens), the widget loader, the widget app and the recorder chunk, all as gzip bytes; and the
 * loader as the local stack sends it (with a project's configuration, compressed as CloudFront would).
 * Run directly: `npx tsx test/bench/web.ts`.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { startTestStack } from '../support/local-stack';
import { newSite } from '../support/sites';
import { cheapCostsEnv } from '../support/users';

const root = fileURLToPath(new URL('../..', import.meta.url));

export interface Budget {
  name: string;
  bytes: number;
  budget: number;
  files: string[];
}

const KB = 1024;

function gzipSize(file: string): number {
  return gzipSync(readFileSync(file), { level: 9 }).length;
}

/** Site-absolute paths ("/assets/x.js") of entry scripts and modulepreloads in the built index.html. */
export function initialScripts(html: string): string[] {
  const found = new Set<string>();
  for (const m of html.matchAll(/<script\b[^>]*\bsrc="([^"]+\.js)"[^>]*>/g)) found.add(m[1]!);
  for (const m of html.matchAll(/<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+\.js)"[^>]*>/g))
    found.add(m[1]!);
  for (const m of html.matchAll(/<link\b[^>]*\bhref="([^"]+\.js)"[^>]*\brel="modulepreload"[^>]*>/g))
    found.add(m[1]!);
  return [...found];
}

/** Relative static imports/re-exports of a built chunk; `import("…")` (lazy) is excluded. */
export function staticImports(code: string): string[] {
  const out: string[] = [];
  for (const m of code.matchAll(
    /\b(?:import|export)\s*(?:[\w$*{}\s,]*?\bfrom\s*)?["'](\.{1,2}\/[^"']+\.js)["']/g,
  )) {
    out.push(m[1]!);
  }
  return out;
}

function dashboardInitial(webDir: string): { bytes: number; files: string[] } {
  const html = readFileSync(join(webDir, 'index.html'), 'utf8');
  const seen = new Set<string>();
  const queue = initialScripts(html).map((src) => posix.normalize(src.replace(/^\//, '')));
  while (queue.length) {
    const rel = queue.pop()!;
    if (seen.has(rel)) continue;
    seen.add(rel);
    const code = readFileSync(join(webDir, rel), 'utf8');
    for (const dep of staticImports(code)) queue.push(posix.normalize(posix.join(posix.dirname(rel), dep)));
  }
  // The dashboard renders once the reader's language catalogue is in (web/src/i18n/index.ts): a lazy chunk
  // on the critical path, so it counts; the larger of the two, whichever language the visitor reads.
  const catalogues = readdirSync(join(webDir, 'assets'))
    .filter((f) => /^(en|de)-[\w-]+\.js$/.test(f))
    .map((f) => `assets/${f}`);
  if (catalogues.length !== 2)
    throw new Error(`expected the en and de catalogue chunks, found ${catalogues}`);
  const catalogue = catalogues.sort((a, b) => gzipSize(join(webDir, b)) - gzipSize(join(webDir, a)))[0]!;
  const files = [...seen, catalogue].sort();
  return { bytes: files.reduce((sum, f) => sum + gzipSize(join(webDir, f)), 0), files };
}

export function webBudgets(dist = join(root, 'dist')): Budget[] {
  const webDir = join(dist, 'web');
  const widgetDir = join(dist, 'widget');
  for (const required of [join(webDir, 'index.html'), join(widgetDir, 'manifest.json')]) {
    if (!existsSync(required)) throw new Error(`${required} missing: run npm run build first`);
  }
  const manifest = JSON.parse(readFileSync(join(widgetDir, 'manifest.json'), 'utf8')) as {
    app: string;
    loader: string;
    recorder: string;
  };
  const initial = dashboardInitial(webDir);
  return [
    { name: 'dashboard initial JS', bytes: initial.bytes, budget: 200 * KB, files: initial.files },
    {
      name: 'widget loader',
      bytes: gzipSize(join(widgetDir, manifest.loader)),
      budget: 3 * KB,
      files: [manifest.loader],
    },
    {
      name: 'widget app',
      bytes: gzipSize(join(widgetDir, manifest.app)),
      budget: 60 * KB,
      files: [manifest.app],
    },
    {
      // Issue 33: rrweb's recorder with the steps, fetched once the page is idle where replay is on.
      name: 'widget recorder chunk',
      bytes: gzipSize(join(widgetDir, manifest.recorder)),
      budget: 30 * KB,
      files: [manifest.recorder],
    },
  ];
}

export interface LoaderOnWire {
  /** Bytes of the answer's body as sent, by what the browser accepts. */
  br: number;
  gzip: number;
  identity: number;
}

/** The body bytes of one GET as they cross the wire (node:http does not decode them), and its encoding. */
function wireBytes(url: string, acceptEncoding?: string): Promise<{ bytes: number; encoding: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} },
      (res) => {
        let bytes = 0;
        res.on('data', (c: Buffer) => {
          bytes += c.length;
        });
        res.on('end', () => resolve({ bytes, encoding: res.headers['content-encoding'] ?? 'identity' }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/**
 * `GET /api/website/{id}/code` of a Free project on the local stack, serving dist/: what a customer's page
 * downloads on every view, asked for as Chromium asks (it lists br), as a Gzip-only client, and plain.
 */
export async function loaderOnTheWire(dist = join(root, 'dist')): Promise<LoaderOnWire> {
  Object.assign(process.env, cheapCostsEnv);
  const stack = await startTestStack({ distDir: dist });
  try {
    const { id } = await newSite(stack.url);
    const url = `${stack.url}/api/website/${id}/code`;
    const br = await wireBytes(url, 'gzip, deflate, br, zstd');
    const gzip = await wireBytes(url, 'gzip, deflate');
    const identity = await wireBytes(url);
    if (br.encoding !== 'br' || gzip.encoding !== 'gzip') {
      throw new Error(`the loader went out as ${br.encoding} and ${gzip.encoding}, not br and gzip`);
    }
    return { br: br.bytes, gzip: gzip.bytes, identity: identity.bytes };
  } finally {
    await stack.stop();
  }
}

function formatKb(bytes: number): string {
  return `${(bytes / KB).toFixed(1)} KB`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const rows = webBudgets();
  console.table(
    rows.map((r) => ({
      what: r.name,
      'gzip size': formatKb(r.bytes),
      budget: formatKb(r.budget),
      ok: r.bytes <= r.budget ? 'yes' : 'NO',
      files: r.files.length,
    })),
  );
  const wire = await loaderOnTheWire();
  console.log(
    `loader on the wire (local stack): ${formatKb(wire.br)} br, ${formatKb(wire.gzip)} gzip, ${formatKb(wire.identity)} uncompressed`,
  );
  if (rows.some((r) => r.bytes > r.budget)) process.exitCode = 1;
}
