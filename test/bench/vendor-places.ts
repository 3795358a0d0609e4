/**
 * `npx tsx test/bench/vendor-places.ts`: how many places outside a vendor's own files name a vendor.
 *
 * What adding a destination costs is the number of files and lines that must learn its name besides the
 * vendor's own files (its client, deliverer, sync adapter, settings part, fake). A vendor's own file is one
 * whose path names it (`vendors/github.ts`, `GithubSettings.tsx`); the catalogue of integrations is the one
 * other place a vendor is meant to be named. Tests, docs and generated files are not counted.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const vendors = ['github', 'gitlab', 'jira', 'linear', 'slack', 'asana'] as const;
const roots = ['functions', 'web/src', 'lib', 'widget/src'];
const skip = [/endpoint-table\.ts$/, /\.graphql$/, /\/i18n\//];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return /\.(ts|tsx)$/.test(name) && !skip.some((s) => s.test(path)) ? [path] : [];
  });
}

export function vendorPlaces() {
  const perVendor: Record<string, { files: Set<string>; lines: number }> = {};
  const all = roots.flatMap(files);
  for (const v of vendors) {
    // CSS has its own `linear` (gradients, easing); it is not the vendor.
    const word = v === 'linear' ? /\blinear(?!-gradient|Gradient| infinite)/i : new RegExp(`\\b${v}`, 'i');
    const entry = { files: new Set<string>(), lines: 0 };
    for (const file of all) {
      if (file.toLowerCase().includes(v)) continue;
      for (const line of readFileSync(file, 'utf8').split('\n')) {
        const code = line.replace(/\/\/.*$/, '').trim();
        if (code.startsWith('*') || code.startsWith('/*')) continue;
        if (word.test(code)) {
          entry.lines++;
          entry.files.add(file);
        }
      }
    }
    perVendor[v] = entry;
  }
  return perVendor;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const places = vendorPlaces();
  const union = new Set(Object.values(places).flatMap((p) => [...p.files]));
  for (const [v, p] of Object.entries(places)) {
    console.log(
      `${v.padEnd(8)} ${String(p.lines).padStart(4)} lines in ${String(p.files.size).padStart(3)} files`,
    );
  }
  console.log(`files naming any vendor outside its own files: ${union.size}`);
  if (process.argv.includes('--files')) for (const f of [...union].sort()) console.log(`  ${f}`);
}
