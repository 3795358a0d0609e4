/**
 * The activity chunk's start (docs/decisions-widget.md "Steps and replay off the loader"): takes over the
 * page events the loader queued since it ran (`Snag._e`), records the page's own history calls, and offers
 * the app the steps and, in the recorder chunk where the configuration has `replay`, the session recorder
 * (`Snag._a`). Runs once per page.
 */
import type { ReplayRecorder, SnagGlobal } from '../api';
import { createStepsRecorder, type StepEvent } from './steps';

type History = Record<'pushState' | 'replaceState', (...args: unknown[]) => unknown>;

export function startActivity(recorder?: (options: { maskText: boolean }) => ReplayRecorder): void {
  const snag = window.Snag as Partial<SnagGlobal> | undefined;
  if (!snag || snag._a) return;
  // The address the page was loaded at, even when the page changed it before this chunk arrived.
  const loaded = (performance.getEntriesByType?.('navigation')[0] as PerformanceEntry | undefined)?.name;
  const steps = createStepsRecorder(loaded || location.href, performance.timeOrigin);
  // A pushState before now shows as one navigation at the time this chunk ran.
  steps.navigated(location.href, performance.now());
  const history = window.history as unknown as History;
  for (const name of ['pushState', 'replaceState'] as const) {
    const original = history[name];
    // Same `this`, arguments, result and exceptions as the page's own call; the step after it succeeded.
    history[name] = function (this: unknown, ...args: unknown[]) {
      const result = original.apply(this, args);
      steps.navigated(location.href, performance.now());
      return result;
    };
  }

  const early = (snag._e ?? []) as StepEvent[];
  snag._e = {
    push(...events) {
      for (const e of events) steps.take(e);
      return 0;
    },
  };
  for (const e of early) steps.take(e);

  let replay: ReplayRecorder | undefined;
  const options = snag._c?.replay;
  // No CompressionStream (older browsers): a recording could not be sent, so none is made.
  if (recorder && options && typeof CompressionStream === 'function') {
    try {
      replay = recorder(options);
    } catch (error) {
      console.warn('Snag: the session recorder could not start', error);
    }
  }
  snag._a = { steps: steps.list, ...(replay ? { replay } : {}) };
}
