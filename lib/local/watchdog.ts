/**
 * A guard for children that would outlive a parent killed without a chance to clean up (SIGKILL, OOM):
 * a tiny plain-node process that kills its target when the parent is gone. Plain JavaScript passed with
 * `-e`, so it needs neither tsx nor a build, and it shows up in `ps` with the tag of its stack.
 */
import { type ChildProcess, spawn } from 'node:child_process';

const script = `
const [parent, target] = process.argv.slice(1, 3).map(Number);
const alive = (pid) => { try { process.kill(pid, 0); return true; } catch (e) { return e.code === 'EPERM'; } };
const reap = () => { try { process.kill(target, 'SIGKILL'); } catch {} process.exit(0); };
// Ctrl-C reaches the whole process group; the parent handles it, and this guard stays until it is done.
process.on('SIGINT', () => {});
// The IPC channel closes the moment the parent dies, however it dies.
process.on('disconnect', reap);
setInterval(() => {
  if (!alive(target)) process.exit(0);
  if (!alive(parent)) reap();
}, 500);
`;

/** Starts a watchdog that SIGKILLs `targetPid` once this process is gone. `tag` only labels it in `ps`. */
export function startWatchdog(targetPid: number, tag: string): ChildProcess {
  const child = spawn(process.execPath, ['-e', script, String(process.pid), String(targetPid), tag], {
    stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
  });
  // Neither the process nor its channel may keep the parent's event loop alive.
  child.unref();
  child.channel?.unref();
  return child;
}
