/** Builds the dashboard and widget bundles (`npm run build`) as a child process, before they are served. */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

/**
 * One build at a time per checkout: two `npm start` begun together (two terminals, the start test's two
 * instances on a fresh clone) would otherwise empty and write dist/ at once, and one fails with ENOTEMPTY.
 * The lock is a directory (mkdir is atomic) holding the builder's pid; a lock whose process is gone (a
 * killed build) is taken over.
 */
const lockDir = resolve(distDir, '.build-lock');
const pidFile = resolve(lockDir, 'pid');

function holderAlive(): boolean {
  try {
    const pid = Number(readFileSync(pidFile, 'utf8'));
    if (!Number.isInteger(pid) || pid <= 0) return false;
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: alive but not ours. No pid file yet: the holder is between mkdir and writing it.
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'EPERM' || (code === 'ENOENT' && existsSync(lockDir));
  }
}

async function withBuildLock<T>(work: () => Promise<T>): Promise<T> {
  mkdirSync(distDir, { recursive: true });
  let announced = false;
  for (let tries = 0; ; tries++) {
    try {
      mkdirSync(lockDir);
      writeFileSync(pidFile, String(process.pid));
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      // A holder that never wrote its pid within a few seconds, or whose process is gone, has left it behind.
      if (!holderAlive() || (tries > 40 && !existsSync(pidFile))) {
        rmSync(lockDir, { recursive: true, force: true });
        continue;
      }
      if (!announced) console.log('[snag] another npm start is building dist/: waiting for it');
      announced = true;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  try {
    return await work();
  } finally {
    rmSync(lockDir, { recursive: true, force: true });
  }
}

export function runBuild(): Promise<void> {
  return withBuildLock(spawnBuild);
}

function spawnBuild(): Promise<void> {
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
