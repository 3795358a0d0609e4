/**
 * What `npm ci` says on a supported Node: no unsupported-engine warnings (every installed package accepts
 * the oldest Node of each line that package.json's `engines` allows), no unreviewed install scripts, and
 * README and CI naming the same Node versions.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../../..');
const read = (file: string) => readFileSync(resolve(root, file), 'utf8');
const pkg = JSON.parse(read('package.json')) as {
  engines: { node: string };
  allowScripts?: Record<string, boolean>;
};
const lock = JSON.parse(read('package-lock.json')) as {
  packages: Record<
    string,
    { version?: string; engines?: { node?: string } | string[]; hasInstallScript?: boolean }
  >;
};
const installed = Object.entries(lock.packages).filter(([path]) => path.startsWith('node_modules/'));
const nameOf = (path: string) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);

/** The oldest version of each Node line `engines` admits (`^20.19.0 || ^22.13.0 || >=24` → 20.19.0, …). */
const oldestSupported = new semver.Range(pkg.engines.node).set.map((comparators) =>
  semver.minVersion(new semver.Range(comparators.map((c) => c.value).join(' '))),
);

describe('install', () => {
  it.each(oldestSupported.map((v) => String(v)))('every installed package supports Node %s', (node) => {
    const unsupported = installed.flatMap(([path, entry]) => {
      const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
      return range && !semver.satisfies(node, range)
        ? [`${nameOf(path)}@${entry.version} wants ${range}`]
        : [];
    });
    expect(unsupported).toEqual([]);
  });

  it('the Node this suite runs on is one package.json supports', () => {
    expect(semver.satisfies(process.versions.node, pkg.engines.node)).toBe(true);
  });

  it('every install script is reviewed in allowScripts', () => {
    const withScripts = installed.filter(([, entry]) => entry.hasInstallScript).map(([path]) => nameOf(path));
    const reviewed = Object.keys(pkg.allowScripts ?? {}).map((key) => key.replace(/(?<=.)@[^@]*$/, ''));
    expect(withScripts.filter((name) => !reviewed.includes(name))).toEqual([]);
  });

  it('README and CI name the same Node versions as engines', () => {
    const readme = read('README.md');
    for (const v of oldestSupported)
      expect(readme).toContain(v?.minor ? `${v.major}.${v.minor}+` : `${v?.major}+`);
    // CI refuses an unsupported Node (ours or a dependency's) instead of warning about it.
    expect(read('.ci/run')).toMatch(/npm ci [^\n]*--engine-strict/);
  });
});
