/**
 * The TypeScript import graph of a set of files, read with the compiler API (no dependency beyond
 * `typescript`): every `import`, `import type`, `export … from`, `import x = require()`, `import()` call and
 * `import('…')` type node (`typeof import('…')`), resolved with the project's own compiler options, so the
 * `#contracts/*` and `#runtime/*` aliases and extensionless paths resolve exactly as `tsc` resolves them.
 * Type-only imports are edges too: a type import that runs upward or round in a circle ties the layers together
 * just as a value import does, even though the bundle never sees it.
 */
import { dirname, relative, resolve } from 'node:path';
import ts from 'typescript';

export interface ImportEdge {
  /** Importing file, relative to the root, with `/` separators. */
  from: string;
  /** Imported file (relative to the root), or the package name for an import from node_modules. */
  to: string;
  /** True when `to` is a package (node_modules, or a Node built-in), not one of our files. */
  external: boolean;
  /** 1-based line of the import in `from`. */
  line: number;
  /** The module specifier as written. */
  specifier: string;
  /**
   * True only when the import can never load the module at run time: `import type`, `export type … from`
   * and `import('…')` type nodes. `import { type A }` is not type-only: with `verbatimModuleSyntax` it still
   * compiles to `import {} from '…'`, which loads the module.
   */
  typeOnly: boolean;
}

/** A file system the reader resolves against: the real one, or an in-memory one for tests. */
export type SourceHost = Pick<ts.ModuleResolutionHost, 'fileExists' | 'readFile'> &
  Partial<Pick<ts.ModuleResolutionHost, 'directoryExists' | 'realpath' | 'getCurrentDirectory'>>;

interface Found {
  specifier: string;
  pos: number;
  typeOnly: boolean;
}

/** Every module reference in one parsed file, in source order. */
function moduleReferences(source: ts.SourceFile): Found[] {
  const found: Found[] = [];
  const add = (node: ts.Node | undefined, typeOnly: boolean) => {
    if (node && ts.isStringLiteralLike(node))
      found.push({ specifier: node.text, pos: node.getStart(source), typeOnly });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) add(node.moduleSpecifier, node.importClause?.isTypeOnly === true);
    else if (ts.isExportDeclaration(node)) add(node.moduleSpecifier, node.isTypeOnly);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference))
      add(node.moduleReference.expression, node.isTypeOnly);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument))
      add(node.argument.literal, true);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword)
      add(node.arguments[0], false);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** `@scope/name/sub` → `@scope/name`, `zod/mini` → `zod`, `node:fs` → `node:fs`. */
export function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}

/**
 * The import edges of `files` (absolute paths). Unresolvable specifiers that are not packages (a `.css`
 * side-effect import, a Vite `?raw` query) are left out: tsc already fails on an unresolved TypeScript import.
 */
export function readImportGraph(
  root: string,
  files: readonly string[],
  options: ts.CompilerOptions,
  host: SourceHost = ts.sys,
): ImportEdge[] {
  const resolutionHost: ts.ModuleResolutionHost = { getCurrentDirectory: () => root, ...host };
  const cache = ts.createModuleResolutionCache(root, (name) => name, options);
  const name = (file: string) => relative(root, file).split('\\').join('/');
  const edges: ImportEdge[] = [];
  for (const file of files) {
    const text = host.readFile(file);
    if (text === undefined) throw new Error(`cannot read ${file}`);
    const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, kind);
    for (const { specifier, pos, typeOnly } of moduleReferences(source)) {
      const line = source.getLineAndCharacterOfPosition(pos).line + 1;
      const resolved = ts.resolveModuleName(specifier, file, options, resolutionHost, cache).resolvedModule;
      const bare = !specifier.startsWith('.') && !specifier.startsWith('/') && !specifier.startsWith('#');
      if (resolved && !resolved.isExternalLibraryImport) {
        edges.push({
          from: name(file),
          to: name(resolve(resolved.resolvedFileName)),
          external: false,
          line,
          specifier,
          typeOnly,
        });
      } else if (bare) {
        edges.push({
          from: name(file),
          to: packageName(specifier),
          external: true,
          line,
          specifier,
          typeOnly,
        });
      }
    }
  }
  return edges;
}

/** The project's compiler options and file list, parsed from its tsconfig as `tsc -p` does. */
export function readProject(tsconfig: string): { options: ts.CompilerOptions; files: string[] } {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    tsconfig,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (!parsed) throw new Error(`cannot read ${tsconfig}`);
  return { options: parsed.options, files: parsed.fileNames.map((f) => resolve(dirname(tsconfig), f)) };
}

/**
 * Import circles: every strongly connected component of more than one file, and every file that imports
 * itself (Tarjan's algorithm, iterative so a long chain cannot overflow the stack). Each circle lists its
 * files in sorted order.
 */
export function importCircles(edges: readonly Pick<ImportEdge, 'from' | 'to'>[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) {
    next.set(from, [...(next.get(from) ?? []), to]);
    if (!next.has(to)) next.set(to, []);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const circles: string[][] = [];
  let counter = 0;
  for (const start of next.keys()) {
    if (index.has(start)) continue;
    const work: { node: string; child: number }[] = [{ node: start, child: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const children = next.get(frame.node)!;
      if (frame.child < children.length) {
        const child = children[frame.child++]!;
        if (!index.has(child)) {
          index.set(child, counter);
          low.set(child, counter++);
          stack.push(child);
          onStack.add(child);
          work.push({ node: child, child: 0 });
        } else if (onStack.has(child)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(child)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== frame.node);
      if (component.length > 1 || children.includes(frame.node)) circles.push(component.sort());
    }
  }
  return circles;
}
