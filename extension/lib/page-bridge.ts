/**
 * The bridge between the page-log script (MAIN world, entrypoints/page-logs.ts) and the reporter (isolated
 * world): the reporter asks with a fresh nonce, the page script answers with its buffer as JSON text (the
 * only kind of event detail that crosses worlds in every browser), naming the nonce. A page can read or
 * forge these events as it can write its own console: what it could fake is its own logs, nothing more.
 */

import type { LogEntry, Step } from '#contracts/intake';
import { randomBase64url } from './pkce';

export const PULL_EVENT = 'snag-extension-pull';
export const PUSH_EVENT = 'snag-extension-logs';

export interface PageActivity {
  logs: LogEntry[];
  steps: Step[];
}

/** The page script's logs and steps, or empty ones when it does not answer within `timeoutMs`. */
export function pullPageActivity(timeoutMs = 500): Promise<PageActivity> {
  const nonce = randomBase64url(18);
  return new Promise((resolve) => {
    const done = (value: PageActivity) => {
      document.removeEventListener(PUSH_EVENT, onPush);
      clearTimeout(timer);
      resolve(value);
    };
    const onPush = (e: Event) => {
      const detail = (e as CustomEvent<unknown>).detail;
      if (typeof detail !== 'string') return;
      try {
        const data = JSON.parse(detail) as { nonce?: unknown; logs?: unknown; steps?: unknown };
        if (data.nonce !== nonce) return;
        done({
          logs: Array.isArray(data.logs) ? (data.logs as LogEntry[]) : [],
          steps: Array.isArray(data.steps) ? (data.steps as Step[]) : [],
        });
      } catch {
        // Not ours.
      }
    };
    const timer = setTimeout(() => done({ logs: [], steps: [] }), timeoutMs);
    document.addEventListener(PUSH_EVENT, onPush);
    document.dispatchEvent(new CustomEvent(PULL_EVENT, { detail: nonce }));
  });
}
