/**
 * Insights' counters and their reader (docs/insights.md, docs/data-model.md 4.22). One item per project and
 * UTC day, `PROJECT#<pid> / INSIGHTS#<YYYY-MM-DD>`, all top-level numbers so the first `ADD` creates them:
 *   r              reports received that day
 *   b_<family>     … by browser family; o_<family> by system; d_<family> by device (closed lists: bounded)
 *   p_<h>, pl_<h>  … by normalised page (h: 12 hex of its SHA-256; pl_ its text); pn pages named, p_other the
 *                  rest: at most `insightsLimits.pagesPerDay` pages by name, so the item stays small
 *   t_<k>          issues resolved that day whose time from report to resolved fell in bucket k
 *                  (contracts/insights.ts resolveBucket)
 * A header remembers what it was counted as: `insC` (its report counted) and `insR` (`<day>#<k>`, its
 * resolution counted), so a restore takes back exactly what the resolve added, and the backfill counts each
 * issue once. The counters change in the same transactions that change the issue (create, triage moves),
 * whose own conditions make a retried request count nothing twice; the page name is the one write after
 * the create's commit (its cap needs a condition a transaction cannot make soft).
 *
 * Open issues by status and priority are not counted here: the facet index (4.13, FSTATS) and META's
 * `openCount` already are those counts; the oldest open issues are the open list read ascending (4.5),
 * without the duplicates of an open primary (`oldestOpen`).
 */
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ProjectAction } from '#contracts/access';
import {
  browserFamily,
  deviceFamily,
  histogramQuantile,
  type InsightsAnswer,
  type InsightsPeriod,
  insightsLimits,
  RESOLVE_BUCKETS,
  resolveBucket,
  resolveRelativeError,
  systemFamily,
} from '#contracts/insights';
import { normalisePage } from '#contracts/pages';
import {
  type IssueStatus,
  isIssueStatus,
  isOpenStatus,
  openStatuses,
  type Priority,
  priorities,
} from '#contracts/triage';
import { db } from '#runtime/aws/dynamo';
import { sha256 } from '#runtime/crypto';
import { getItems, isConditionFailure, type Key, type TransactItems, tableName } from '#runtime/db';
import { log } from '#runtime/log';
import { DAY, nowMs } from '#runtime/time';
import { authorizeTeam, callerOf, membershipOf, readProjectAs } from '../projects/access';
import { listProjects, projectPartition } from '../projects/project';
import { principalKey } from '../teams/token';
import { issueHeaderKey, listPartition } from './issue';
import { fstatsKey, priorityFacet, statusFacet, totalOf } from './rank-index';
import { triageFieldsOf } from './triage-fields';

type Item = Record<string, unknown>;

export const insightsDayKey = (pid: string, day: string): Key => ({
  pk: projectPartition(pid),
  sk: `INSIGHTS#${day}`,
});
/** The UTC day of an ISO time or epoch ms. */
export const dayOf = (t: string | number) => new Date(t).toISOString().slice(0, 10);

/** What a report is counted by: its day, its families and its normalised page. */
export interface ReportFacts {
  createdAt: string;
  data: {
    browser?: string | undefined;
    os?: string | undefined;
    deviceType?: string | undefined;
    href?: string | undefined;
  };
}

/** The create transaction's action (and the backfill's): the day's report, browser, system and device. */
export function reportCountAction(pid: string, issue: ReportFacts): TransactItems[number] {
  return {
    Update: {
      TableName: tableName(),
      Key: insightsDayKey(pid, dayOf(issue.createdAt)),
      UpdateExpression: 'ADD r :one, #b :one, #o :one, #d :one',
      ExpressionAttributeNames: {
        '#b': `b_${browserFamily(issue.data.browser)}`,
        '#o': `o_${systemFamily(issue.data.os)}`,
        '#d': `d_${deviceFamily(issue.data.deviceType)}`,
      },
      ExpressionAttributeValues: { ':one': 1 },
    },
  };
}

/** The header's record of its counted resolution: `<day>#<bucket>`. */
export const resolveMark = (createdAt: string, resolvedAt: string) => {
  const seconds = Math.max(0, (Date.parse(resolvedAt) - Date.parse(createdAt)) / 1000);
  return `${dayOf(resolvedAt)}#${resolveBucket(Number.isFinite(seconds) ? seconds : 0)}`;
};
const parseMark = (mark: unknown): { day: string; k: number } | null => {
  const m = typeof mark === 'string' ? /^(\d{4}-\d{2}-\d{2})#(\d{1,3})$/.exec(mark) : null;
  return m ? { day: m[1]!, k: Number(m[2]) } : null;
};

/**
 * A move between the lists (issues/triage.ts changeActions), as insights see it: to resolved, the day's
 * histogram gains the issue's bucket and the header records it (`insR`); back to open, the recorded bucket
 * loses it and the record goes. `condition` pins the record as read, so a backfill that counted the
 * resolution meanwhile makes the move read again rather than leave its count behind.
 */
export function resolveMoveActions(
  pid: string,
  header: Item,
  to: 'open' | 'resolved',
  at: string,
): {
  actions: TransactItems;
  set?: { expression: string; values: Item };
  remove?: string;
  condition: { expression: string; values: Item };
} {
  const old = parseMark(header.insR);
  const condition =
    typeof header.insR === 'string'
      ? { expression: 'insR = :insR0', values: { ':insR0': header.insR } }
      : { expression: 'attribute_not_exists(insR)', values: {} };
  const T = tableName();
  const update = (day: string, adds: [number, number][]): TransactItems[number] => ({
    Update: {
      TableName: T,
      Key: insightsDayKey(pid, day),
      UpdateExpression: `ADD ${adds.map((_, i) => `#t${i} :v${i}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(adds.map(([k], i) => [`#t${i}`, `t_${k}`])),
      ExpressionAttributeValues: Object.fromEntries(adds.map(([, by], i) => [`:v${i}`, by])),
    },
  });
  if (to === 'resolved') {
    const mark = resolveMark(String(header.createdAt ?? at), at);
    const now = parseMark(mark)!;
    // A header that still holds a record (never the case through triage, whose restore removes it) gives
    // it back; one item is written once per transaction, so a record of the same day folds into one update.
    let actions: TransactItems;
    if (!old) actions = [update(now.day, [[now.k, 1]])];
    else if (old.day !== now.day) actions = [update(now.day, [[now.k, 1]]), update(old.day, [[old.k, -1]])];
    else
      actions =
        old.k === now.k
          ? []
          : [
              update(now.day, [
                [now.k, 1],
                [old.k, -1],
              ]),
            ];
    return { actions, set: { expression: 'insR = :insR', values: { ':insR': mark } }, condition };
  }
  return { actions: old ? [update(old.day, [[old.k, -1]])] : [], remove: 'insR', condition };
}

/**
 * After the create committed: the report's page by name on its day, while the day names fewer than
 * `pagesPerDay` pages (else `p_other`). 1 request for a page the day already names, 2 for a new one; a
 * failure is logged and the report stands (its page then counts nowhere: the day's `r` still has it).
 */
export async function countReportPage(pid: string, createdAt: string, href: string | undefined) {
  const page = normalisePage(href);
  const key = insightsDayKey(pid, dayOf(createdAt));
  const send = (update: string, condition: string, names: Item, values: Item) =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key,
        UpdateExpression: update,
        ...(condition ? { ConditionExpression: condition } : {}),
        ExpressionAttributeNames: names as Record<string, string>,
        ExpressionAttributeValues: values,
      }),
    );
  const other = () => send('ADD #o :one', '', { '#o': 'p_other' }, { ':one': 1 });
  try {
    if (!page) return await other();
    const h = sha256(page).slice(0, 12);
    const names = { '#c': `p_${h}` };
    const existing = () => send('ADD #c :one', 'attribute_exists(#c)', names, { ':one': 1 });
    try {
      return await existing();
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
    }
    try {
      return await send(
        'ADD #c :one, pn :one SET #l = :label',
        'attribute_not_exists(#c) AND (attribute_not_exists(pn) OR pn < :cap)',
        { ...names, '#l': `pl_${h}` },
        { ':one': 1, ':label': page, ':cap': insightsLimits.pagesPerDay },
      );
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
    }
    // Another report named it first, or the day is full.
    try {
      return await existing();
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
    }
    return await other();
  } catch (e) {
    log.warn('insights page not counted', { projectId: pid, e });
  }
}

// Reading.

/** The FSTATS items an insights answer reads: the open statuses and priorities other than the defaults. */
const countedStatuses = openStatuses.filter((s) => s !== 'new');
const countedPriorities = priorities.filter((p) => p !== 'none');
const facetKeys = (pid: string) => [
  ...countedStatuses.map((s) => fstatsKey(pid, statusFacet('open', s))),
  ...countedPriorities.map((p) => fstatsKey(pid, priorityFacet('open', p))),
];

/** The period's days, oldest first, today (UTC) last. */
export function periodDays(period: InsightsPeriod, now = nowMs()): string[] {
  return Array.from({ length: period }, (_, i) => dayOf(now - (period - 1 - i) * DAY));
}

/** Open list items read per page after the first, once duplicates of an open primary were skipped. */
const OLDEST_PAGE = 25;
/** Pages read at most: past 80 oldest open issues that are all duplicates of open primaries, fewer rows show. */
const OLDEST_PAGES = 4;

/**
 * A project's oldest open issues: the open list read ascending, leaving out the duplicates whose primary is
 * open too (one problem, which the primary's row stands for; decision Mrg-7). A duplicate open while its
 * primary is resolved was reopened by a member on its own (follow.ts): a problem again, so it stays. One
 * Query of 5 in the common case (as before), plus one BatchGetItem of the primaries met and pages of 25
 * after skips, at most 4 pages: the cost does not grow with the project.
 */
async function oldestOpen(pid: string): Promise<Item[]> {
  const out: Item[] = [];
  let start: Item | undefined;
  for (let page = 0; page < OLDEST_PAGES && out.length < insightsLimits.oldest; page++) {
    const res = await db().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :l',
        ExpressionAttributeValues: { ':l': listPartition(pid, 'OPEN') },
        ProjectionExpression: '#n, title, createdAt, #s, duplicateOf',
        ExpressionAttributeNames: { '#n': 'number', '#s': 'status' },
        ScanIndexForward: true,
        // The first page as before (the 5 wanted): the common case costs what it did; more only past skips.
        Limit: page === 0 ? insightsLimits.oldest : OLDEST_PAGE,
        ExclusiveStartKey: start,
      }),
    );
    const items = res.Items ?? [];
    const primaries = [
      ...new Set(items.map((h) => Number(h.duplicateOf)).filter((n) => Number.isInteger(n) && n > 0)),
    ];
    const heads = primaries.length
      ? await getItems(
          primaries.map((n) => issueHeaderKey(pid, n)),
          { projection: { expression: 'pk, sk, #s', names: { '#s': 'status' } } },
        )
      : [];
    // A primary gone (deleted meanwhile) stands for nothing: its duplicates show.
    const openPrimary = new Set(
      primaries.filter((_, i) => heads[i] && isOpenStatus(triageFieldsOf(heads[i]).status)),
    );
    for (const h of items) if (!openPrimary.has(Number(h.duplicateOf))) out.push(h);
    start = res.LastEvaluatedKey;
    if (!start) break;
  }
  return out.slice(0, insightsLimits.oldest);
}

/** One project's reads, once access is settled: its day items and its oldest open headers (2 Queries, in parallel). */
async function projectReads(pid: string, days: string[]) {
  const T = tableName();
  const [dayItems, oldest] = await Promise.all([
    (async () => {
      const items: Item[] = [];
      let start: Item | undefined;
      do {
        const out = await db().send(
          new QueryCommand({
            TableName: T,
            KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
            ExpressionAttributeValues: {
              ':pk': projectPartition(pid),
              ':from': `INSIGHTS#${days[0]}`,
              ':to': `INSIGHTS#${days[days.length - 1]}`,
            },
            ExclusiveStartKey: start,
          }),
        );
        items.push(...(out.Items ?? []));
        start = out.LastEvaluatedKey;
      } while (start);
      return items;
    })(),
    oldestOpen(pid),
  ]);
  return { dayItems, oldest };
}

/** What one project contributes to an answer, before summing. */
interface ProjectFigures {
  id: string;
  name: string;
  openCount: number;
  facets: (Item | undefined)[];
  dayItems: Item[];
  oldest: Item[];
}

const top = (m: Map<string, number>, n: number) =>
  [...m.entries()]
    .filter(([, c]) => c > 0)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, n)
    .map(([key, count]) => ({ key, count }));

const add = (m: Map<string, number>, k: string, by: number) => m.set(k, (m.get(k) ?? 0) + by);

/** Sums projects' figures into the answer (a project's own answer is the sum over one). */
export function sumFigures(period: InsightsPeriod, days: string[], all: ProjectFigures[]): InsightsAnswer {
  const perDay = new Map(days.map((d) => [d, 0]));
  const browsers = new Map<string, number>();
  const systems = new Map<string, number>();
  const devices = new Map<string, number>();
  const pages = new Map<string, number>();
  const hist = new Map<number, number>();
  let otherPages = 0;
  let openTotal = 0;
  const byStatus = new Map<IssueStatus, number>(openStatuses.map((s) => [s, 0]));
  const byPriority = new Map<Priority, number>(priorities.map((p) => [p, 0]));
  for (const f of all) {
    openTotal += f.openCount;
    let counted = 0;
    countedStatuses.forEach((s, i) => {
      const c = totalOf(f.facets[i]);
      counted += c;
      byStatus.set(s, (byStatus.get(s) ?? 0) + c);
    });
    // Issues filed before triage are in no facet and read as new (4.13).
    byStatus.set('new', (byStatus.get('new') ?? 0) + Math.max(0, f.openCount - counted));
    let prioritised = 0;
    countedPriorities.forEach((p, i) => {
      const c = totalOf(f.facets[countedStatuses.length + i]);
      prioritised += c;
      byPriority.set(p, (byPriority.get(p) ?? 0) + c);
    });
    byPriority.set('none', (byPriority.get('none') ?? 0) + Math.max(0, f.openCount - prioritised));
    for (const item of f.dayItems) {
      const day = String(item.sk).slice('INSIGHTS#'.length);
      if (!perDay.has(day)) continue;
      for (const [attr, raw] of Object.entries(item)) {
        const v = Number(raw);
        if (!Number.isFinite(v)) continue;
        if (attr === 'r') add(perDay, day, v);
        else if (attr.startsWith('b_')) add(browsers, attr.slice(2), v);
        else if (attr.startsWith('o_')) add(systems, attr.slice(2), v);
        else if (attr.startsWith('d_')) add(devices, attr.slice(2), v);
        else if (attr === 'p_other') otherPages += v;
        else if (attr.startsWith('p_')) {
          const label = item[`pl_${attr.slice(2)}`];
          if (typeof label === 'string') add(pages, label, v);
          else otherPages += v;
        } else if (attr.startsWith('t_')) {
          const k = Number(attr.slice(2));
          if (Number.isInteger(k) && k >= 0 && k < RESOLVE_BUCKETS) hist.set(k, (hist.get(k) ?? 0) + v);
        }
      }
    }
  }
  const resolved = [...hist.values()].reduce((s, c) => s + Math.max(0, c), 0);
  const clean = new Map([...hist.entries()].filter(([, c]) => c > 0));
  const oldestOpen = all
    .flatMap((f) =>
      f.oldest.map((h) => ({
        projectId: f.id,
        projectName: f.name,
        number: Number(h.number),
        title: String(h.title ?? ''),
        createdAt: String(h.createdAt ?? ''),
        status: isIssueStatus(h.status) ? h.status : ('new' as IssueStatus),
      })),
    )
    .filter((o) => isOpenStatus(o.status))
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.number - b.number)
    .slice(0, insightsLimits.oldest);
  const perDayList = days.map((date) => ({ date, count: perDay.get(date) ?? 0 }));
  return {
    period,
    from: days[0]!,
    to: days[days.length - 1]!,
    reports: { total: perDayList.reduce((s, d) => s + d.count, 0), perDay: perDayList },
    open: {
      total: openTotal,
      byStatus: openStatuses.map((status) => ({ status, count: byStatus.get(status) ?? 0 })),
      byPriority: priorities.map((priority) => ({ priority, count: byPriority.get(priority) ?? 0 })),
    },
    top: {
      pages: top(pages, insightsLimits.top),
      otherPages,
      browsers: top(browsers, insightsLimits.top),
      systems: top(systems, insightsLimits.top),
      devices: top(devices, insightsLimits.top),
    },
    resolve: {
      resolved,
      median: histogramQuantile(clean, 0.5),
      p90: histogramQuantile(clean, 0.9),
      relativeError: resolveRelativeError,
    },
    oldestOpen,
    projects: all.map((f) => ({ id: f.id, name: f.name })),
  };
}

/**
 * A project's insights: session (the pipeline), then META, the caller's TEAMS and the six FSTATS in one
 * consistent BatchGetItem (the access check), then the day items and the oldest open headers in parallel:
 * 4 requests, whatever the project's size.
 */
export async function projectInsights(
  userId: string,
  pid: string,
  period: InsightsPeriod,
  action: ProjectAction,
): Promise<InsightsAnswer> {
  const { project, items } = await readProjectAs(userId, pid, action, facetKeys(pid));
  const days = periodDays(period);
  const { dayItems, oldest } = await projectReads(pid, days);
  return sumFigures(period, days, [
    {
      id: pid,
      name: String(project.name ?? ''),
      openCount: Number(project.openCount ?? 0),
      facets: items,
      dayItems,
      oldest,
    },
  ]);
}

/**
 * A team's insights, summed over the projects its caller may read (a GUEST: the projects of its
 * invitation): the caller's TEAMS and the team's project list (in parallel), every project's FSTATS in one
 * batch (per 100 keys), then each project's two Queries in parallel: 3 + 2·P requests, P the team's
 * projects (bounded by its plan), whatever their sizes.
 */
export async function teamInsights(
  userId: string,
  teamId: string,
  period: InsightsPeriod,
): Promise<InsightsAnswer> {
  const [[teamsItem], listed] = await Promise.all([getItems([principalKey(userId)]), listProjects(teamId)]);
  const caller = await callerOf(userId, teamsItem);
  const member = membershipOf(caller.teams, teamId);
  authorizeTeam(member, 'team.read');
  const projects = (
    member?.role === 'GUEST' ? listed.filter((p) => member.projects?.includes(p.id)) : listed
  ).sort((a, b) => a.createdAt - b.createdAt);
  const days = periodDays(period);
  const perProject = facetKeys('x').length;
  const [facets, reads] = await Promise.all([
    projects.length
      ? getItems(
          projects.flatMap((p) => facetKeys(p.id)),
          { eventual: true },
        )
      : [],
    Promise.all(projects.map((p) => projectReads(p.id, days))),
  ]);
  return sumFigures(
    period,
    days,
    projects.map((p, i) => ({
      id: p.id,
      name: p.name,
      openCount: Number(p.openCount ?? 0),
      facets: facets.slice(i * perProject, (i + 1) * perProject),
      dayItems: reads[i]!.dayItems,
      oldest: reads[i]!.oldest,
    })),
  );
}
