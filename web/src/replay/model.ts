/** The replay player's pure rules (docs/replay.md): clock text, the frame's fit, where a seek lands. */

/** 72_400 ms → "1:12": the player's position and length. */
export function clock(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/** The recorded viewport scaled down (never up) to the width the page gives the player. */
export function frameFit(
  viewport: { width: number; height: number },
  available: number,
): { width: number; height: number; scale: number } {
  const scale = viewport.width > 0 && available > 0 ? Math.min(1, available / viewport.width) : 1;
  return { width: viewport.width, height: viewport.height, scale };
}

/** A moment (epoch ms) as the player's offset from the recording's first event, within its length. */
export const offsetOf = (at: number, startTime: number, totalTime: number) =>
  Math.min(Math.max(0, at - startTime), Math.max(0, totalTime));

/** The keyboard's step through the replay. */
export const skipMs = 5000;

/** The speeds offered. */
export const speeds = [1, 2, 4, 8] as const;

/** The viewport of the recording's first meta event (rrweb type 4), or a common laptop's as a fallback. */
export function viewportOf(events: readonly Record<string, unknown>[]): { width: number; height: number } {
  for (const event of events) {
    const data = event.data as { width?: unknown; height?: unknown } | undefined;
    if (event.type === 4 && typeof data?.width === 'number' && typeof data.height === 'number')
      return { width: data.width, height: data.height };
  }
  return { width: 1280, height: 720 };
}
