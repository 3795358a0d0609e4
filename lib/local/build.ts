/** Builds the dashboard and widget bundles (`npm run build`) as a child process, before they are served. */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { repoRoot } from './functions';

export const distDir = resolve(repoRoot, 'dist');

/** Both bundles are present (the skip of SNAG_SKIP_BUILD only makes sense then). */
export const distExists = (dir = distDir) =>
  existsSync(resolve(dir, 'web', 'index.html')) && existsSync(resolve(dir, 'widget'));

let running: ChildProcess | undefined;

/** Kills a build in progress (the exit paths of bin/start.ts call it). */
export function killBuild(): void {
  running?.kill('SIGTERM');
}

export function runBuild(): Promise<void> {
  return new Promise((done, fail) => {
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const child = spawn(npm, ['run', 'build'], { cwd: repoRoot, stdio: 'inherit' });
    running = child;
    child.once('error', (err) => {
      running = undefined;
      fail(err);
    });
    child.once('exit', (code, signal) => {
      running = undefined;
      if (code === 0) done();
      else fail(new Error(`npm run build failed (${signal ?? `exit code ${code}`})`));
    });
  });
}
