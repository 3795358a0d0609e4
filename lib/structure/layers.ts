/**
 * The layer rules of DESIGN section 9 as one table, and the check `test/unit/project/structure.test.ts` runs
 * over the import graph of functions/, lib/, web/src/ and widget/src/ (docs/layout.md explains the layers).
 */
import { relative, resolve } from 'node:path';
import { type ImportEdge, importCircles, readImportGraph, readProject } from './import-graph';

export interface Layer {
  name: string;
  /** Folders (relative to the root, ending in `/`) whose files, at any depth, belong to the layer, or single files. */
  folders?: readonly string[];
  /** Folders whose direct files only belong to the layer (the roof: `functions/*.ts`). */
  files?: readonly string[];
  /**
   * A file may import its own layer and every layer of a LOWER rank in its group; layers of the same rank
   * (issues, billing) may not import each other. The domains share rank 3 and are ordered by the decimal.
   */
  rank?: number;
  /**
   * Ranks compare only inside one group: the backend and lib/ (no group), the dashboard (`web`). Another
   * group's layers are open only as `imports` and `typeImports` name them.
   */
  group?: 'web';
  /** Layers outside the own group (for a client without rank: all other layers) a file may import. */
  imports?: readonly string[];
  /** Layers outside the own group a file may import with `import type` only (never loaded at run time). */
  typeImports?: readonly string[];
  /** When given, the only packages the layer may import (contracts run in the browser too). */
  packages?: readonly string[];
  /** Packages the layer may not import (HTTP stays in the runtime and the entry points). */
  forbids?: readonly string[];
}

/** The HTTP event types and the middleware: a domain gets plain values from its entry point. */
const http = ['aws-lambda', '@middy/core'];

/**
 * The dashboard's rows: ranked among themselves, and like every client open to the contracts and the
 * widget's look, and to the roof for its types (the typed client reads the route table's types).
 */
function dashboard(rows: readonly Layer[]): Layer[] {
  return rows.map((row) => ({
    ...row,
    group: 'web',
    imports: ['contracts', 'widget look'],
    typeImports: ['roof'],
  }));
}

/** Ground first. A file belongs to the first row that holds it; a file in no row is itself an error. */
export const layers: readonly Layer[] = [
  // Contracts run in the browser too, so they use only pure, browser-safe packages: zod, and the country
  // list and VAT number check that the billing form and the billing API must agree on (docs/layout.md).
  {
    name: 'contracts',
    folders: ['functions/contracts/'],
    rank: 1,
    packages: ['zod', 'i18n-iso-countries', 'jsvat'],
  },
  { name: 'runtime', folders: ['functions/runtime/'], rank: 2 },
  // Domains. Each domain's manifest.ts is part of its domain: it declares, handlers import it, never back.
  { name: 'platform', folders: ['functions/platform/'], rank: 3.0, forbids: http },
  { name: 'accounts', folders: ['functions/accounts/'], rank: 3.1, forbids: http },
  { name: 'teams', folders: ['functions/teams/'], rank: 3.2, forbids: http },
  { name: 'projects', folders: ['functions/projects/'], rank: 3.3, forbids: http },
  { name: 'issues', folders: ['functions/issues/'], rank: 3.4, forbids: http },
  { name: 'billing', folders: ['functions/billing/'], rank: 3.4, forbids: http },
  { name: 'integrations', folders: ['functions/integrations/'], rank: 3.5, forbids: http },
  {
    name: 'entry points',
    folders: ['functions/handlers/', 'functions/consumers/', 'functions/schedules/'],
    rank: 4,
  },
  { name: 'roof', files: ['functions/'], rank: 5 },
  // lib/ sits above the roof: the tools that build, run and check the functions. The local stack serves the
  // demo page with the dashboard's own install snippet, so the two cannot drift.
  {
    name: 'lib ground',
    folders: ['lib/paths.ts', 'lib/settings.ts', 'lib/resources.ts', 'lib/bundling.ts', 'lib/web-headers.ts'],
    rank: 6,
  },
  { name: 'local vendors', folders: ['lib/local/vendors/'], rank: 6.1 },
  { name: 'local stack', folders: ['lib/local/'], rank: 7, imports: ['web projects'] },
  { name: 'stacks', folders: ['lib/stacks/'], rank: 7 },
  { name: 'structure', folders: ['lib/structure/'], rank: 7 },
  { name: 'codegen', folders: ['lib/codegen/'], rank: 7 },
  { name: 'mcp', folders: ['lib/mcp/'], rank: 7 },
  { name: 'cdk app', folders: ['lib/app.ts'], rank: 8 },
  // Clients: the browser bundles share the contracts; the dashboard's typed client reads the roof's types.
  // The widget's look (its launcher and its bundled texts) is shown by the dashboard too: the Widget screen
  // previews the real launcher and offers the real default texts, so they cannot drift from what visitors
  // see. Those modules import only contracts, and nothing of the dashboard.
  {
    name: 'widget look',
    folders: ['widget/src/launcher.ts', 'widget/src/i18n/'],
    imports: ['contracts'],
  },
  ...dashboard([
    // The ground: the typed client, the address table, texts, parts and hooks no feature owns, config.
    {
      name: 'web',
      folders: ['web/src/api/', 'web/src/i18n/', 'web/src/components/', 'web/src/forms/', 'web/src/hooks/'],
      files: ['web/src/'],
      rank: 1,
    },
    // Feature folders in the domains' rank; the API reference knows no domain, the board and the
    // integrations show issues.
    { name: 'web docs', folders: ['web/src/docs/'], rank: 2.0 },
    // The session replay's player (issue 33): the issue page and the public replay page show it.
    { name: 'web replay', folders: ['web/src/replay/'], rank: 2.0 },
    { name: 'web accounts', folders: ['web/src/accounts/'], rank: 2.1 },
    { name: 'web teams', folders: ['web/src/teams/'], rank: 2.2 },
    { name: 'web projects', folders: ['web/src/projects/'], rank: 2.3 },
    { name: 'web issues', folders: ['web/src/issues/'], rank: 2.4 },
    { name: 'web billing', folders: ['web/src/billing/'], rank: 2.4 },
    { name: 'web invitations', folders: ['web/src/invitations/'], rank: 2.4 },
    { name: 'web board', folders: ['web/src/board/'], rank: 2.5 },
    { name: 'web integrations', folders: ['web/src/integrations/'], rank: 2.5 },
    { name: 'web insights', folders: ['web/src/insights/'], rank: 2.5 },
    // Screens compose features; the shell (entry, route map, layouts) puts screens in their frame.
    { name: 'web screens', folders: ['web/src/screens/'], rank: 3 },
    { name: 'web app', folders: ['web/src/app/'], rank: 4 },
  ]),
  { name: 'widget', folders: ['widget/src/'], imports: ['contracts', 'widget look'] },
];

/** The folders the check reads; every TypeScript file below them must belong to a layer. */
export const checkedFolders = ['functions/', 'lib/', 'web/src/', 'widget/src/'] as const;

/** An import the check tolerates until the named work removes it; the list may only shrink. */
export interface KnownViolation {
  /** Importing file, relative to the root. */
  from: string;
  /** Imported file, or package name. */
  to: string;
  why: string;
}

export function layerOf(file: string, table: readonly Layer[] = layers): Layer | undefined {
  return table.find(
    (layer) =>
      layer.folders?.some((folder) => file.startsWith(folder)) ||
      layer.files?.some((folder) => file.startsWith(folder) && !file.slice(folder.length).includes('/')),
  );
}

/** Why `edge` breaks the table, or undefined when it keeps to it. */
export function layerProblem(edge: ImportEdge, table: readonly Layer[] = layers): string | undefined {
  const from = layerOf(edge.from, table);
  if (!from) return undefined; // reported once per file by checkStructure
  if (edge.external) {
    if (from.forbids?.includes(edge.to))
      return `${from.name} may not import ${edge.to}: HTTP stays in the entry points`;
    return from.packages && !from.packages.includes(edge.to)
      ? `${from.name} may import only the packages ${from.packages.join(', ')}`
      : undefined;
  }
  const to = layerOf(edge.to, table);
  if (!to) return `${edge.to} is outside the layers (${from.name} may import only the layers below it)`;
  if (to === from) return undefined;
  if (from.rank !== undefined && to.rank !== undefined && from.group === to.group) {
    if (to.rank > from.rank) return `${from.name} may not import ${to.name}: upward`;
    if (to.rank === from.rank) return `${from.name} may not import ${to.name}: same rank`;
    return undefined;
  }
  if (from.imports?.includes(to.name)) return undefined;
  if (from.typeImports?.includes(to.name))
    return edge.typeOnly ? undefined : `${from.name} may import ${to.name} with \`import type\` only`;
  if (from.rank !== undefined && from.group === undefined)
    return `${from.name} may not import the client ${to.name}`;
  const below = from.rank !== undefined && table.some((l) => l.group === from.group && l.rank! < from.rank!);
  const allowed = [
    ...(below ? ['the lower ranks'] : []),
    ...(from.imports ?? []),
    ...(from.typeImports ?? []).map((name) => `${name} (types)`),
  ];
  return `${from.name} may import only ${allowed.join(', ') || 'itself'}, not ${to.name}`;
}

const key = (edge: Pick<ImportEdge, 'from' | 'to'>) => `${edge.from} → ${edge.to}`;

export interface StructureReport {
  /** Every circle, upward import and stray file not covered by a known violation, with file and line. */
  problems: string[];
  /** Known violations that no longer occur: delete them from the list. */
  stale: string[];
}

/**
 * Checks the graph of `files` (relative paths, every file below `checkedFolders`) against the table:
 * circles (of any imports, type-only included), imports the table forbids, files in no layer.
 */
export function checkStructure(
  files: readonly string[],
  edges: readonly ImportEdge[],
  known: readonly KnownViolation[] = [],
  table: readonly Layer[] = layers,
): StructureReport {
  const problems: string[] = [];
  for (const file of files)
    if (!layerOf(file, table))
      problems.push(`${file} is in no layer: add its folder to lib/structure/layers.ts`);

  const knownKeys = new Set(known.map(key));
  const occurring = new Set<string>();

  for (const edge of edges) {
    const problem = layerProblem(edge, table);
    if (!problem) continue;
    if (knownKeys.has(key(edge))) occurring.add(key(edge));
    else problems.push(`${edge.from}:${edge.line} imports ${edge.to}: ${problem}`);
  }

  // Circles of the whole graph tell which known imports still close one; the circles that remain once the
  // known imports are taken out are problems.
  const internal = edges.filter((edge) => !edge.external);
  for (const circle of importCircles(internal)) {
    const members = new Set(circle);
    for (const edge of internal)
      if (members.has(edge.from) && members.has(edge.to) && knownKeys.has(key(edge)))
        occurring.add(key(edge));
  }
  const unknown = internal.filter((edge) => !knownKeys.has(key(edge)));
  for (const circle of importCircles(unknown)) {
    const path = shortestCircle(circle[0]!, unknown, new Set(circle));
    const chain = path.map((edge) => `${edge.from}:${edge.line}`).join(' → ');
    const others =
      circle.length > path.length ? ` (and ${circle.length - path.length} more file(s) in it)` : '';
    problems.push(`import circle: ${chain} → ${path[0]!.from}${others}`);
  }

  const stale = known
    .filter((violation) => !occurring.has(key(violation)))
    .map(
      (violation) => `${key(violation)} (${violation.why}) no longer occurs: remove it from knownViolations`,
    );
  return { problems, stale };
}

/** The shortest chain of imports from `start` back to itself inside one strongly connected component. */
function shortestCircle(start: string, edges: readonly ImportEdge[], members: Set<string>): ImportEdge[] {
  const via = new Map<string, ImportEdge>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const node = queue[i]!;
    for (const edge of edges) {
      if (edge.from !== node || !members.has(edge.to)) continue;
      if (edge.to === start) {
        const path = [edge];
        while (path[0]!.from !== start) path.unshift(via.get(path[0]!.from)!);
        return path;
      }
      if (!via.has(edge.to)) {
        via.set(edge.to, edge);
        queue.push(edge.to);
      }
    }
  }
  throw new Error(`${start} is in no circle`);
}

/** The checked files (relative paths) of the project at `root` and their import edges, read with its tsconfig. */
export function readProjectGraph(root: string): { files: string[]; edges: ImportEdge[] } {
  const { options, files } = readProject(resolve(root, 'tsconfig.json'));
  const checked = files.filter((file) => {
    const path = relative(root, file).split('\\').join('/');
    return checkedFolders.some((folder) => path.startsWith(folder));
  });
  return {
    files: checked.map((file) => relative(root, file).split('\\').join('/')),
    edges: readImportGraph(root, checked, options),
  };
}
