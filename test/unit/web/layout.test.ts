/**
 * The dashboard's layout (DESIGN.md section 9, docs/decisions-web.md "Layout of web/src"): screens only
 * compose, so they stay short and the parts, hooks and models they use live in the feature folders; those
 * folders never reach up into screens or the app shell. The import graph is read with the compiler's own
 * pre-processor (type imports and import() included), the layer order across functions/ is the structure
 * test's job.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { type Layer, layers } from '../../../lib/structure/layers';

const src = fileURLToPath(new URL('../../../web/src', import.meta.url));
/** DESIGN.md section 9: "screens/ that only compose (about 150 lines at most)". */
const screenMaxLines = 150;
/**
 * The feature folders in their written rank (DESIGN.md section 9): each may import only lower ranks. The
 * ranks are the dashboard rows of the one layer table (lib/structure/layers.ts), between the ground (rank 1)
 * and the screens (rank 3).
 */
const folderOf = (layer: Layer) => /^web\/src\/(\w+)\/$/.exec(layer.folders?.[0] ?? '')?.[1];
const webRows = layers.filter((layer) => layer.group === 'web');
const featureRank: Record<string, number> = Object.fromEntries(
  webRows.flatMap((layer) => {
    const folder = folderOf(layer);
    return folder && layer.rank! > 1 && layer.rank! < 3 ? [[folder, layer.rank!]] : [];
  }),
);
const featureFolders = Object.keys(featureRank);
/** Folders below the screens: feature folders and the shared ground (client, hooks, parts, forms, texts). */
const belowScreens = [
  ...featureFolders,
  ...webRows
    .filter((layer) => layer.rank === 1)
    .flatMap((layer) => (layer.folders ?? []).map((folder) => folder.split('/')[2]!)),
];

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : /\.tsx?$/.test(name) ? [path] : [];
  });
}

const files = filesUnder(src).map((path) => relative(src, path));

/** web/src-relative targets of a file's relative imports (static, type-only and import()). */
function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(join(src, file), 'utf8'), true, true);
  return importedFiles
    .map((i) => i.fileName)
    .filter((spec) => spec.startsWith('.'))
    .map((spec) => {
      const base = relative(src, join(src, file, '..', spec));
      return [base, `${base}.ts`, `${base}.tsx`].find((f) => files.includes(f)) ?? base;
    });
}

const top = (file: string) => file.split('/')[0]!;

/** A call of the API or a touch of the SWR cache, which only a feature's data module makes. */
const callsTheApi = (text: string) => /\bapi\.(call|load)\(|\buseEndpoint\(|\bmutate\(|from 'swr'/.test(text);

describe('the layout of web/src', () => {
  it('keeps each screen a composition of about 150 lines at most', () => {
    const long = files
      .filter((f) => top(f) === 'screens')
      .map((f) => ({ f, lines: readFileSync(join(src, f), 'utf8').split('\n').length }))
      .filter(({ lines }) => lines > screenMaxLines);
    expect(long).toEqual([]);
  });

  it('lets no feature folder or shared part import a screen or the app shell', () => {
    const upward = files
      .filter((f) => belowScreens.includes(top(f)))
      .flatMap((f) => importsOf(f).map((to) => `${f} → ${to}`))
      .filter((edge) => {
        const to = edge.split(' → ')[1]!;
        return top(to) === 'screens' || top(to) === 'app';
      });
    expect(upward).toEqual([]);
  });

  it('lets a feature folder import only the feature folders of lower rank', () => {
    const sideways = files
      .filter((f) => featureFolders.includes(top(f)))
      .flatMap((f) => importsOf(f).map((to) => ({ f, to })))
      .filter(({ f, to }) => featureFolders.includes(top(to)) && top(to) !== top(f))
      .filter(({ f, to }) => featureRank[top(to)]! >= featureRank[top(f)]!)
      .map(({ f, to }) => `${f} → ${to}`);
    expect(sideways).toEqual([]);
  });

  it('lets a screen use parts but no other screen', () => {
    const across = files
      .filter((f) => top(f) === 'screens')
      .flatMap((f) => importsOf(f).map((to) => `${f} → ${to}`))
      .filter((edge) => top(edge.split(' → ')[1]!) === 'screens');
    expect(across).toEqual([]);
  });

  it("lets only a feature's data module call the API or touch the cache (docs/layout.md)", () => {
    const withData = featureFolders.filter((folder) => files.includes(`${folder}/data.ts`));
    expect(withData).toEqual(
      expect.arrayContaining([
        'accounts',
        'billing',
        'integrations',
        'invitations',
        'issues',
        'projects',
        'teams',
      ]),
    );
    // Every file of web/src: features, screens, the app shell and the ground, except the client and the
    // SWR wiring (api/) the data modules call through.
    const outside = files
      .filter((f) => top(f) !== 'api' && !withData.some((folder) => f === `${folder}/data.ts`))
      .filter((f) => callsTheApi(readFileSync(join(src, f), 'utf8')));
    expect(outside).toEqual([]);
  });

  it('reads the import graph it checks (a guard against a checker that sees nothing)', () => {
    expect(importsOf('screens/IssueScreen.tsx')).toContain('issues/IssueMedia.tsx');
    expect(importsOf('app/routes.tsx')).toContain('screens/IssueScreen.tsx');
    expect(files.filter((f) => top(f) === 'screens').length).toBeGreaterThan(10);
    expect(files.filter((f) => top(f) === 'app').length).toBeGreaterThan(3);
    expect(callsTheApi("const { data } = useEndpoint('profile.get', {});")).toBe(true);
    expect(callsTheApi("await api.call('auth.confirm', { body });")).toBe(true);
  });
});
