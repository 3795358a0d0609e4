/** Time helpers; `now` is a function so tests can move the clock. */
export const clock = { now: () => Date.now() };
export const nowMs = () => clock.now();
export const epochSeconds = (ms: number) => Math.floor(ms / 1000);
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
