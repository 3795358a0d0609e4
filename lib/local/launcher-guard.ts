/**
 * Stops the stack when whoever launched it is gone. `npm start` runs npm → sh → tsx → node; a SIGTERM to
 * npm kills npm and sh but never reaches tsx or this process, which would otherwise serve on, orphaned.
 * Each of the nearest ancestors is watched for being re-parented (its launcher died). Linux only (/proc);
 * elsewhere this does nothing.
 */
import { readFileSync } from 'node:fs';

/** The parent pid of `pid`, from /proc/<pid>/stat (the field after the parenthesised command). */
export function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    return Number.isInteger(ppid) ? ppid : undefined;
  } catch {
    return undefined;
  }
}

/** Calls `onGone` once when this process or one of its `levels` nearest ancestors changes parent. */
export function watchLaunchers(onGone: (why: string) => void, levels = 3, intervalMs = 1000): () => void {
  const chain: { pid: number; parent: number }[] = [];
  let pid = process.pid;
  for (let i = 0; i <= levels; i++) {
    const parent = parentOf(pid);
    // pid 1 (init or a container's entry point) outlives everything; there is nothing to watch above it.
    if (parent === undefined || parent <= 1) break;
    chain.push({ pid, parent });
    pid = parent;
  }
  if (chain.length === 0) return () => {};
  const timer = setInterval(() => {
    const broken = chain.find((link) => parentOf(link.pid) !== link.parent);
    if (!broken) return;
    clearInterval(timer);
    onGone(`process ${broken.parent} (launcher of ${broken.pid}) is gone`);
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
