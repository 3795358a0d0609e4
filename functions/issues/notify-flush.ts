/** The notification outbox's flush and the daily digest (first cut: the real one follows). */
import type { Logger } from '#runtime/log';

export interface FlushResult {
  entries: number;
  mails: number;
}

export async function flushNotifications(_log: Logger): Promise<FlushResult> {
  return { entries: 0, mails: 0 };
}

export async function sendDigests(_log: Logger): Promise<FlushResult> {
  return { entries: 0, mails: 0 };
}
