/**
 * The layers of DESIGN section 9 (docs/layout.md): no import circle and no import up the layer table
 * (lib/structure/layers.ts) in functions/, lib/, web/src/ and widget/src/, type-only imports included. The
 * known violations (lib/structure/known-violations.ts) are tolerated until their part of issue 21 removes
 * them, and the test fails once one no longer occurs, so the list only shrinks. The checker itself is tested
 * on small in-memory projects below.
 */
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type ImportEdge,
  readImportGraph,
  readProject,
  type SourceHost,
} from '../../../lib/structure/import-graph';
import { knownViolations } from '../../../lib/structure/known-violations';
import {
  checkStructure,
  type KnownViolation,
  layerOf,
  readProjectGraph,
} from '../../../lib/structure/layers';

const root = resolve(import.meta.dirname, '../../..');

describe('the project', () => {
  const { files, edges } = readProjectGraph(root);
  const report = checkStructure(files, edges, knownViolations);

  it('has no import circle and no import up the layers', () => {
    expect(report.problems).toEqual([]);
  });

  it('still has every known violation (remove the ones that are gone)', () => {
    expect(report.stale).toEqual([]);
  });

  it('reads every part of the layers, aliases resolved', () => {
    expect(files.length).toBeGreaterThan(200);
    for (const folder of [
      'functions/contracts/',
      'functions/runtime/',
      'functions/handlers/',
      'web/src/',
      'widget/src/',
    ])
      expect(files.some((file) => file.startsWith(folder))).toBe(true);
    const alias = edges.find((edge) => edge.specifier.startsWith('#runtime/'));
    expect(alias?.to).toMatch(/^functions\/runtime\/.+\.ts$/);
  });

  it('reads lib/ and the dashboard by its floors', () => {
    expect(files).toContain('lib/local/vendors/fake.ts');
    expect(files).toContain('web/src/paths.ts');
    expect(layerOf('web/src/paths.ts')?.name).toBe('web');
    expect(layerOf('web/src/screens/IssueScreen.tsx')?.name).toBe('web screens');
    expect(layerOf('lib/app.ts')?.name).toBe('cdk app');
  });
});

/** A small project in memory: package.json with the real `imports` aliases, files by relative path. */
function fixture(sources: Record<string, string>) {
  const fixtureRoot = '/fixture';
  const { options } = readProject(resolve(root, 'tsconfig.json'));
  const text = new Map(Object.entries(sources).map(([file, source]) => [`${fixtureRoot}/${file}`, source]));
  text.set(
    `${fixtureRoot}/package.json`,
    JSON.stringify({
      type: 'module',
      imports: { '#contracts/*': './functions/contracts/*.ts', '#runtime/*': './functions/runtime/*.ts' },
    }),
  );
  const host: SourceHost = {
    fileExists: (file) => text.has(file),
    readFile: (file) => text.get(file),
    directoryExists: (dir) => [...text.keys()].some((file) => file.startsWith(`${dir}/`)),
  };
  const files = Object.keys(sources);
  const edges = readImportGraph(
    fixtureRoot,
    files.map((file) => `${fixtureRoot}/${file}`),
    options,
    host,
  );
  return { edges, check: (known: readonly KnownViolation[] = []) => checkStructure(files, edges, known) };
}

/** A domain layer that keeps to the table: handler → domain → lower domain → runtime → contracts. */
const ground = {
  'functions/contracts/schemas.ts': "import * as z from 'zod';\nexport const id = z.string();\n",
  'functions/runtime/db.ts': "import { id } from '#contracts/schemas';\nexport const read = () => id;\n",
  'functions/projects/projects.ts': "import { read } from '#runtime/db';\nexport const project = read;\n",
  'functions/issues/issues.ts':
    "import type { project } from '../projects/projects';\nexport const issue = (p: typeof project) => p;\n",
  'functions/issues/manifest.ts': "export const issuesManifest = { name: 'issues' };\n",
  'functions/handlers/issues.ts':
    "import { issuesManifest } from '../issues/manifest';\nimport { issue } from '../issues/issues';\nexport const operations = { issue, issuesManifest };\n",
  'functions/manifests.ts': "export { issuesManifest } from './issues/manifest';\n",
};

describe('the structure check', () => {
  it('passes downward imports, aliases resolved', () => {
    const { edges, check } = fixture(ground);
    expect(check()).toEqual({ problems: [], stale: [] });
    expect(edges.find((edge) => edge.specifier === '#contracts/schemas')?.to).toBe(
      'functions/contracts/schemas.ts',
    );
  });

  it('names the file and line of an import up the layers', () => {
    const { check } = fixture({
      ...ground,
      'functions/projects/projects.ts':
        "import { read } from '#runtime/db';\n\nimport { issue } from '../issues/issues';\nexport const project = [read, issue];\n",
    });
    expect(check().problems).toContain(
      'functions/projects/projects.ts:3 imports functions/issues/issues.ts: projects may not import issues: upward',
    );
  });

  it('fails a domain manifest that imports a handler, even for its types only', () => {
    const { check } = fixture({
      ...ground,
      'functions/issues/manifest.ts':
        "export const issuesManifest = { name: 'issues' } as { name: string; ops?: typeof import('../handlers/issues').operations };\n",
    });
    expect(check().problems).toContain(
      'functions/issues/manifest.ts:1 imports functions/handlers/issues.ts: issues may not import entry points: upward',
    );
  });

  it('fails a circle of type-only imports', () => {
    const { check } = fixture({
      ...ground,
      'functions/issues/a.ts': "import type { B } from './b';\nexport type A = { b?: B };\n",
      'functions/issues/b.ts': "\nexport type { A } from './a';\nexport type B = import('./a').A;\n",
    });
    expect(check().problems).toEqual([
      'import circle: functions/issues/a.ts:1 → functions/issues/b.ts:2 → functions/issues/a.ts',
    ]);
  });

  it('fails a self-import', () => {
    const { check } = fixture({
      ...ground,
      'functions/issues/a.ts': "export const a = () => import('./a');\n",
    });
    expect(check().problems).toEqual(['import circle: functions/issues/a.ts:1 → functions/issues/a.ts']);
  });

  it('fails imports between domains of the same rank', () => {
    const { check } = fixture({
      ...ground,
      'functions/billing/plans.ts': "import { issue } from '../issues/issues';\nexport const plan = issue;\n",
    });
    expect(check().problems).toEqual([
      'functions/billing/plans.ts:1 imports functions/issues/issues.ts: billing may not import issues: same rank',
    ]);
  });

  it('fails a domain importing the HTTP event types: HTTP stays in the entry points', () => {
    const { check } = fixture({
      ...ground,
      'functions/issues/intake.ts':
        "import type { APIGatewayProxyEventV2 } from 'aws-lambda';\nexport type E = APIGatewayProxyEventV2;\n",
    });
    expect(check().problems).toEqual([
      'functions/issues/intake.ts:1 imports aws-lambda: issues may not import aws-lambda: HTTP stays in the entry points',
    ]);
  });

  it('fails contracts importing the runtime or a package outside their list', () => {
    const { check } = fixture({
      ...ground,
      'functions/contracts/review.ts':
        "import type { read } from '#runtime/db';\nimport { v4 } from 'uuid';\nexport type R = typeof read | typeof v4;\n",
    });
    expect(check().problems).toEqual([
      'functions/contracts/review.ts:1 imports functions/runtime/db.ts: contracts may not import runtime: upward',
      'functions/contracts/review.ts:2 imports uuid: contracts may import only the packages zod, i18n-iso-countries, jsvat',
    ]);
  });

  it('fails web importing the runtime, and the roof except with `import type`', () => {
    const { check } = fixture({
      ...ground,
      'web/src/api/types.ts':
        "import type { issuesManifest } from '../../../functions/manifests';\nexport type M = typeof issuesManifest;\n",
      'web/src/api/client.ts':
        "import { id } from '#contracts/schemas';\nimport { read } from '#runtime/db';\nimport { type issuesManifest } from '../../../functions/manifests';\nexport const c = [id, read] as unknown as typeof issuesManifest;\n",
    });
    expect(check().problems).toEqual([
      'web/src/api/client.ts:2 imports functions/runtime/db.ts: web may import only contracts, widget look, roof (types), not runtime',
      'web/src/api/client.ts:3 imports functions/manifests.ts: web may import roof with `import type` only',
    ]);
  });

  it('fails the widget importing web, and web importing the widget', () => {
    const { check } = fixture({
      ...ground,
      'web/src/texts.ts': "import { label } from '../../widget/src/texts';\nexport const text = label;\n",
      'widget/src/texts.ts':
        "export const label = 'Feedback';\nexport const other = () => import('../../web/src/texts');\n",
    });
    expect(check().problems).toEqual([
      'web/src/texts.ts:1 imports widget/src/texts.ts: web may import only contracts, widget look, roof (types), not widget',
      'widget/src/texts.ts:2 imports web/src/texts.ts: widget may import only contracts, widget look, not web',
      'import circle: web/src/texts.ts:1 → widget/src/texts.ts:2 → web/src/texts.ts',
    ]);
  });

  it('fails a dashboard feature importing the screens, the shell or a feature of its rank or above', () => {
    const { check } = fixture({
      ...ground,
      'web/src/paths.ts': "export const paths = { login: '/login' };\n",
      'web/src/app/routes.tsx': "import { paths } from '../paths';\nexport const routes = [paths];\n",
      'web/src/screens/LoginScreen.tsx': "import { paths } from '../paths';\nexport const screen = paths;\n",
      'web/src/teams/model.ts': "import { paths } from '../paths';\nexport const team = paths;\n",
      'web/src/issues/model.ts':
        "import { team } from '../teams/model';\nimport { routes } from '../app/routes';\nimport { screen } from '../screens/LoginScreen';\nexport const issue = [team, routes, screen];\n",
      'web/src/billing/plans.ts': "import { issue } from '../issues/model';\nexport const plan = issue;\n",
    });
    expect(check().problems).toEqual([
      'web/src/issues/model.ts:2 imports web/src/app/routes.tsx: web issues may not import web app: upward',
      'web/src/issues/model.ts:3 imports web/src/screens/LoginScreen.tsx: web issues may not import web screens: upward',
      'web/src/billing/plans.ts:1 imports web/src/issues/model.ts: web billing may not import web issues: same rank',
    ]);
  });

  it('keeps lib/ above the roof: lib may import the functions, nothing in them may import lib', () => {
    const { check } = fixture({
      ...ground,
      'web/src/projects/model.ts': "export const installSnippet = () => '<script>';\n",
      'lib/local/demo.ts':
        "import { installSnippet } from '../../web/src/projects/model';\nimport { read } from '#runtime/db';\nexport const page = [installSnippet, read];\n",
      'lib/stacks/api.ts':
        "import { issuesManifest } from '../../functions/manifests';\nimport { page } from '../local/demo';\nexport const stack = [issuesManifest, page];\n",
      'functions/runtime/config.ts':
        "import { stack } from '../../lib/stacks/api';\nexport const config = stack;\n",
    });
    expect(check().problems).toEqual([
      'lib/stacks/api.ts:2 imports lib/local/demo.ts: stacks may not import local stack: same rank',
      'functions/runtime/config.ts:1 imports lib/stacks/api.ts: runtime may not import stacks: upward',
    ]);
  });

  it('fails a file in no layer', () => {
    const { check } = fixture({ ...ground, 'functions/reports/weekly.ts': 'export const weekly = 1;\n' });
    expect(check().problems).toEqual([
      'functions/reports/weekly.ts is in no layer: add its folder to lib/structure/layers.ts',
    ]);
  });

  it('tolerates a known violation, and fails once it no longer occurs', () => {
    const upward = {
      ...ground,
      'functions/runtime/db.ts':
        "import { id } from '#contracts/schemas';\nimport '../manifests';\nexport const read = () => id;\n",
    };
    const known = [{ from: 'functions/runtime/db.ts', to: 'functions/manifests.ts', why: 'being fixed' }];
    // The upward import also closes a circle (roof → manifest … → runtime → roof): both are tolerated.
    expect(fixture(upward).check(known)).toEqual({ problems: [], stale: [] });
    expect(fixture(ground).check(known)).toEqual({
      problems: [],
      stale: [
        'functions/runtime/db.ts → functions/manifests.ts (being fixed) no longer occurs: remove it from knownViolations',
      ],
    });
  });

  it('sees every kind of import, and which ones are type-only', () => {
    const { edges } = fixture({
      ...ground,
      'functions/handlers/kinds.ts': [
        "import { read } from '#runtime/db';",
        "import type { project } from '../projects/projects';",
        "export { issue } from '../issues/issues';",
        "export type { issuesManifest } from '../issues/manifest';",
        "import { type id } from '#contracts/schemas';",
        "export const later = () => import('../issues/manifest');",
        "export type P = typeof import('../projects/projects').project | typeof project | typeof id;",
        "import fs = require('node:fs');",
        'export const r = [read, fs];',
      ].join('\n'),
    });
    const kinds = edges
      .filter((edge) => edge.from === 'functions/handlers/kinds.ts')
      .map(({ line, to, typeOnly, external }: ImportEdge) => ({ line, to, typeOnly, external }));
    expect(kinds).toEqual([
      { line: 1, to: 'functions/runtime/db.ts', typeOnly: false, external: false },
      { line: 2, to: 'functions/projects/projects.ts', typeOnly: true, external: false },
      { line: 3, to: 'functions/issues/issues.ts', typeOnly: false, external: false },
      { line: 4, to: 'functions/issues/manifest.ts', typeOnly: true, external: false },
      // Inline `type` still compiles to `import {} from …` under verbatimModuleSyntax: it loads the module.
      { line: 5, to: 'functions/contracts/schemas.ts', typeOnly: false, external: false },
      { line: 6, to: 'functions/issues/manifest.ts', typeOnly: false, external: false },
      { line: 7, to: 'functions/projects/projects.ts', typeOnly: true, external: false },
      { line: 8, to: 'node:fs', typeOnly: false, external: true },
    ]);
  });
});
