/**
 * The session recorder (issue 33, docs/replay.md "Recorder"): rrweb's `record` into the ring buffer
 * (ring.ts) with the privacy rules of replay-options.ts. It runs only in the recorder chunk, which the
 * loader fetches once the page is idle and only where the configuration has `replay`.
 *
 * - Paused while the widget panel is open (rrweb stopped, so nothing of the panel or the page behind it
 *   is recorded); resuming starts a new segment with a full snapshot, so the replay stays consistent.
 * - Stopped for good on a page whose DOM changes more than `mutationsMax` nodes within
 *   `mutationWindowMs` (counted by an observer of our own, created before rrweb's so it sees each batch
 *   first and can disconnect rrweb before rrweb serialises it): the report then says `stopped:
 *   'mutations'` and the page is not slowed by a recorder that cannot keep up.
 */
import { record } from '@rrweb/record';
import { replayLimits } from '#contracts/intake';
import type { ReplayRecorder, ReplayTake } from '../api';
import { repairEvent } from './css-layers';
import { replayOptions } from './replay-options';
import { createRing, pack, type RrEvent } from './ring';

/** Nodes a batch of mutation records touches: added subtrees in full, each other change as one. */
export function mutatedNodes(records: readonly MutationRecord[]): number {
  let n = 0;
  for (const r of records) {
    n += r.type === 'childList' ? r.removedNodes.length : 1;
    for (const node of r.addedNodes) n += 1 + ((node as Element).getElementsByTagName?.('*').length ?? 0);
  }
  return n;
}

/** A counter over fixed windows: `add(n, now)` answers true once a window has seen more than `max`. */
export function mutationBudget(
  max: number = replayLimits.mutationsMax,
  windowMs: number = replayLimits.mutationWindowMs,
) {
  let since = Number.NEGATIVE_INFINITY;
  let count = 0;
  return (n: number, now: number): boolean => {
    if (now - since >= windowMs) {
      since = now;
      count = 0;
    }
    count += n;
    return count > max;
  };
}

export function startRecorder(options: { maskText: boolean }, doc: Document = document): ReplayRecorder {
  const ring = createRing();
  let stopRrweb: (() => void) | undefined;
  let stopped: ReplayTake['stopped'];
  /** When the recording last ended (a pause or the stop), epoch ms. */
  let endedAt: number | undefined;
  let paused = false;

  const over = mutationBudget();
  const guard = new MutationObserver((records) => {
    // Counted only while rrweb records: the limit protects the page from the recorder's own cost.
    if (stopRrweb && over(mutatedNodes(records), Date.now())) {
      stopped = 'mutations';
      halt();
      guard.disconnect();
    }
  });

  const halt = () => {
    stopRrweb?.();
    stopRrweb = undefined;
    endedAt = Date.now();
  };
  const run = () => {
    if (stopped || stopRrweb) return;
    stopRrweb = record({
      ...replayOptions(options.maskText),
      // Style sheets as the page has them, not as Chromium's CSSOM writes them (css-layers.ts).
      emit: (e: RrEvent) => ring.add(repairEvent(e, record.mirror)),
    });
  };

  guard.observe(doc, { subtree: true, childList: true, attributes: true, characterData: true });
  // The panel may already be open when the chunk arrives: then recording waits for it to close.
  if (doc.querySelector('snag-panel')) paused = true;
  else run();

  return {
    has: () => ring.has(),
    pause() {
      if (paused) return;
      paused = true;
      if (stopRrweb) halt();
    },
    resume() {
      if (!paused) return;
      paused = false;
      run();
    },
    async take() {
      const until = stopRrweb || endedAt === undefined ? Date.now() : endedAt;
      const packed = await pack(ring.events(until));
      if (!packed) return null;
      return { ...packed, end: Math.max(packed.end, until), ...(stopped ? { stopped } : {}) };
    },
  };
}
