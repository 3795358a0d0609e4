/**
 * The replay's ring buffer (contracts/intake.ts `replayLimits`, docs/replay.md "Recorder"): rrweb's
 * events in memory only, as segments that each begin with a full snapshot (a Meta event, then the
 * FullSnapshot). rrweb starts a new one every `checkoutMs`; the last two are kept, so the newest
 * `windowMs` can always be played from a snapshot. Nothing here leaves the page: `pack` builds what a
 * report attaches, only when the visitor sends one.
 */
import { replayLimits } from '#contracts/intake';

/** rrweb's event types that matter here (@rrweb/types EventType). */
export const FULL_SNAPSHOT = 2;
export const META = 4;

export interface RrEvent {
  type: number;
  timestamp: number;
  data?: unknown;
}

export interface Ring {
  add(event: RrEvent): void;
  /** Whether a full snapshot is there to play from. */
  has(): boolean;
  /** The kept events, oldest first, no older than needed to cover `windowMs` before `now`. */
  events(now: number): RrEvent[];
  clear(): void;
}

export function createRing(limits: Pick<typeof replayLimits, 'windowMs'> = replayLimits): Ring {
  let segments: RrEvent[][] = [];
  /** Drops the oldest segment once the next one alone covers the window. */
  const trim = (now: number) => {
    while (segments.length > 1 && segments[1]![0]!.timestamp <= now - limits.windowMs) segments.shift();
  };
  return {
    add(event) {
      if (event.type === META) {
        segments.push([event]);
        if (segments.length > 2) segments.shift();
      } else segments[segments.length - 1]?.push(event); // Before the first snapshot: nothing to play it on.
      trim(event.timestamp);
    },
    has: () => segments.some((s) => s.some((e) => e.type === FULL_SNAPSHOT)),
    events(now) {
      trim(now);
      return segments.flat();
    },
    clear() {
      segments = [];
    },
  };
}

/** A gzip of `text` (CompressionStream in the browser; tests pass node's). */
export type Compress = (text: string) => Promise<Blob>;

export const gzip: Compress = (text) =>
  new Response(new Blob([text]).stream().pipeThrough(new CompressionStream('gzip'))).blob();

/**
 * The gzip of `events` as a JSON array, at most `maxBytes`: whole older segments go first, then the
 * oldest changes after the remaining full snapshot, which always stays first so the replay plays (what
 * the dropped changes did shows from the next full snapshot or change of the same element on). Null when
 * even the snapshot alone is too large, or there is none.
 */
export async function pack(
  events: readonly RrEvent[],
  compress: Compress = gzip,
  maxBytes: number = replayLimits.maxGzipBytes,
): Promise<{ blob: Blob; start: number; end: number } | null> {
  const first = events.findIndex((e) => e.type === META);
  if (first < 0) return null;
  let kept = events.slice(first);
  for (;;) {
    const head = kept.findIndex((e) => e.type === FULL_SNAPSHOT) + 1;
    if (!head) return null;
    const blob = await compress(JSON.stringify(kept));
    if (blob.size <= maxBytes) {
      const last = kept[kept.length - 1]!;
      return { blob, start: kept[0]!.timestamp, end: last.timestamp };
    }
    const next = kept.findIndex((e, i) => i > 0 && e.type === META);
    if (next > 0) kept = kept.slice(next);
    else {
      const rest = kept.slice(head);
      if (!rest.length) return null;
      // Drop about the share that is over the cap (at least one event), then measure again.
      const drop = Math.max(1, Math.ceil(rest.length * (1 - maxBytes / blob.size)));
      kept = [...kept.slice(0, head), ...rest.slice(drop)];
    }
  }
}
