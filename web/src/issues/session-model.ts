/**
 * The issue page's one timeline (docs/replay.md, "The issue page"): the visitor's steps, the console
 * errors and failed requests, and the moment of the report, in time order; each with its distance from
 * the report and, when the issue has a replay covering it, the moment the player seeks to.
 */
import type { LogEntry, Step } from '#contracts/intake';
import type { IssueAnswer, IssueReplayAnswer } from '#contracts/review';

export type SessionItem =
  | { kind: 'step'; at: number; number: number; step: Step }
  | { kind: 'error' | 'request'; at: number; log: LogEntry }
  | { kind: 'report'; at: number };

/** Which logs the timeline shows: failed requests, and console entries at error level. */
export function timelineLog(entry: LogEntry): 'error' | 'request' | null {
  if (entry.kind === 'network') return 'request';
  return entry.level === 'error' ? 'error' : null;
}

/**
 * When the visitor sent the report, on their own clock, as the steps' and logs' times are: the replay's end,
 * else the time the widget sent (`sent_at`); only for reports of older widgets, the issue's creation.
 */
export function reportMoment(issue: Pick<IssueAnswer, 'replay' | 'date_created' | 'sent_at'>): number {
  if (issue.replay) return issue.replay.end;
  if (issue.sent_at !== null && issue.sent_at !== undefined) return issue.sent_at;
  const created = Date.parse(issue.date_created.date);
  return Number.isNaN(created) ? 0 : created;
}

/** Ties keep the order a reader expects: what the visitor did, then what went wrong, then the report. */
const tieOrder: Record<SessionItem['kind'], number> = { step: 0, error: 1, request: 1, report: 2 };

/** Steps, shown logs and the report, oldest first; steps numbered 1… in their own order. */
export function sessionItems(
  issue: Pick<IssueAnswer, 'steps' | 'logs' | 'replay' | 'date_created' | 'sent_at'>,
): SessionItem[] {
  const steps: SessionItem[] = [...issue.steps]
    .sort((a, b) => a.t - b.t)
    .map((step, i) => ({ kind: 'step', at: step.t, number: i + 1, step }));
  const logs: SessionItem[] = issue.logs.flatMap((log) => {
    const kind = timelineLog(log);
    return kind ? [{ kind, at: log.t, log }] : [];
  });
  const all = [...steps, ...logs, { kind: 'report', at: reportMoment(issue) } as const];
  // Array.prototype.sort is stable: equal times keep the tie order and then their own.
  return all.sort((a, b) => a.at - b.at || tieOrder[a.kind] - tieOrder[b.kind]);
}

/** From this many seconds before the report on, a time reads "a day or more before the report". */
export const DAY_SECONDS = 24 * 60 * 60;

/** Whole seconds from `at` to the report, never negative (a clock a little ahead reads "at the report"). */
export const secondsBefore = (at: number, report: number) => Math.max(0, Math.round((report - at) / 1000));

/**
 * How the timeline says when: at the report, whole seconds before it, or, from a day on, "a day or more"
 * (the intake clamps times into that day; reports filed before may hold any time, `1` ms since 1970).
 */
export function whenBefore(
  at: number,
  report: number,
): { key: 'atReport' | 'beforeLong' } | { key: 'before'; count: number } {
  const count = secondsBefore(at, report);
  if (count === 0) return { key: 'atReport' };
  return count >= DAY_SECONDS ? { key: 'beforeLong' } : { key: 'before', count };
}

/**
 * Where the player goes for an item: `at` when the replay covers it (a second's grace before its start,
 * for a step the recorder took while starting), else null (the item has no picture to show).
 */
export function seekable(at: number, replay: Pick<IssueReplayAnswer, 'start' | 'end'> | null): boolean {
  if (!replay) return false;
  return at >= replay.start - 1000 && at <= replay.end + 1000;
}

/** The replay's length in whole seconds (the section's summary). */
export const replaySeconds = (replay: Pick<IssueReplayAnswer, 'start' | 'end'>) =>
  Math.max(0, Math.round((replay.end - replay.start) / 1000));

/** Why an issue has no replay, as far as the project and the plan tell. */
export function noReplayReason(plan: { replays?: boolean } | undefined, projectOn: boolean) {
  if (plan?.replays !== true) return 'plan' as const;
  return projectOn ? ('leftOut' as const) : ('off' as const);
}
