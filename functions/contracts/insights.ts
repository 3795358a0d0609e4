/**
 * Insights (docs/insights.md): a project's and a team's figures at a glance, read from counters kept as
 * issues change, never from the issues themselves, so the screen costs the same at 100 and at 100,000 issues.
 *
 * Routes (session, `read`; a team's over the projects its caller may read):
 * - GET /api/client/website/{id}/insights?period=7|30|90 → msg: InsightsAnswer
 * - GET /api/client/team/{teamId}/insights?period=7|30|90 → msg: InsightsAnswer (summed over its projects)
 * - GET /api/v1/projects/{projectId}/insights?period=… (issues:read) → data: InsightsAnswer
 *
 * The pure arithmetic lives here too (families, the resolve-time histogram's buckets and percentiles), so
 * the writers, the reader, the bench and the tests share one definition.
 */
import * as z from 'zod';
import { issueStatuses, openStatuses, priorities } from './triage';

export const insightsPeriods = [7, 30, 90] as const;
export type InsightsPeriod = (typeof insightsPeriods)[number];

/** Not strict: every dashboard call may carry `lng` (the answer's language), which the pipeline reads on its own. */
export const insightsQuerySchema = z.object({
  period: z
    .enum(['7', '30', '90'])
    .default('30')
    .transform((p) => Number(p) as InsightsPeriod),
});

/** How many entries each "most reported" list shows, and how many pages a day keeps by name (the rest: other). */
export const insightsLimits = { top: 5, oldest: 5, pagesPerDay: 50 } as const;

// Families: a report's browser, system and device as a short closed list, so a counter item holds a bounded
// number of attributes whatever a visitor's widget sends (hostile input names nothing new).
export const browserFamilies = ['chrome', 'safari', 'firefox', 'edge', 'opera', 'samsung', 'other'] as const;
export const systemFamilies = ['windows', 'macos', 'ios', 'android', 'linux', 'chromeos', 'other'] as const;
export const deviceFamilies = ['desktop', 'mobile', 'tablet', 'other'] as const;
export type BrowserFamily = (typeof browserFamilies)[number];
export type SystemFamily = (typeof systemFamilies)[number];
export type DeviceFamily = (typeof deviceFamilies)[number];

/** The family of a browser name as the widget reports it ("Chrome", "Samsung Internet", "Edge"…). */
export function browserFamily(name: string | undefined): BrowserFamily {
  const s = (name ?? '').toLowerCase();
  if (s.includes('edge')) return 'edge';
  if (s.includes('opera')) return 'opera';
  if (s.includes('samsung')) return 'samsung';
  if (s.includes('firefox')) return 'firefox';
  if (s.includes('chrom')) return 'chrome';
  if (s.includes('safari')) return 'safari';
  return 'other';
}

export function systemFamily(name: string | undefined): SystemFamily {
  const s = (name ?? '').toLowerCase();
  if (/\bios\b|iphone|ipad/.test(s)) return 'ios';
  if (s.includes('android')) return 'android';
  if (s.includes('windows')) return 'windows';
  if (s.includes('mac') || s.includes('os x')) return 'macos';
  if (s.includes('chrome os') || s.includes('chromeos') || s.includes('cros')) return 'chromeos';
  if (s.includes('linux') || s.includes('ubuntu')) return 'linux';
  return 'other';
}

export function deviceFamily(type: string | undefined): DeviceFamily {
  const s = (type ?? 'desktop').toLowerCase();
  if (s === 'desktop' || s === 'mobile' || s === 'tablet') return s;
  return 'other';
}

/**
 * Time from report to resolved, in logarithmic buckets: bucket 0 is under a minute, bucket k ≥ 1 covers
 * [60·r^(k−1), 60·r^k) seconds with r = 2^(1/4) (four buckets per doubling). A bucket is read as its
 * geometric middle, so any duration it holds is within `resolveRelativeError` (2^(1/8) − 1 ≈ 9.1 %) of the
 * value shown; bucket 0 reads as 30 s. 100 buckets reach past 50 years; longer is the last bucket.
 */
export const RESOLVE_RATIO = 2 ** (1 / 4);
export const RESOLVE_BUCKETS = 100;
export const resolveRelativeError = Math.sqrt(RESOLVE_RATIO) - 1;

export function resolveBucket(seconds: number): number {
  if (!(seconds >= 60)) return 0;
  const k = Math.floor(Math.log(seconds / 60) / Math.log(RESOLVE_RATIO)) + 1;
  // Floating point can put an exact boundary one bucket low; the lower edge decides.
  const fixed = bucketLow(k + 1) <= seconds ? k + 1 : k;
  return Math.min(RESOLVE_BUCKETS - 1, Math.max(1, fixed));
}

/** The lower edge of bucket k ≥ 1, in seconds. */
export const bucketLow = (k: number) => 60 * RESOLVE_RATIO ** (k - 1);

/** The value a bucket is read as: its geometric middle (30 s for bucket 0). */
export const bucketValue = (k: number) => (k <= 0 ? 30 : bucketLow(k) * Math.sqrt(RESOLVE_RATIO));

/**
 * The q-quantile (0 < q ≤ 1, nearest rank) of a histogram `counts[k]`, in seconds; null when it is empty.
 * The true quantile lies in the same bucket, so the answer is within `resolveRelativeError` of it.
 */
export function histogramQuantile(counts: ReadonlyMap<number, number>, q: number): number | null {
  const buckets = [...counts.entries()].filter(([, c]) => c > 0).sort((a, b) => a[0] - b[0]);
  const total = buckets.reduce((s, [, c]) => s + c, 0);
  if (total === 0) return null;
  const rank = Math.max(1, Math.ceil(q * total));
  let seen = 0;
  for (const [k, c] of buckets) {
    seen += c;
    if (seen >= rank) return bucketValue(k);
  }
  return bucketValue(buckets[buckets.length - 1]![0]);
}

const count = z.number().int().min(0);
const entry = z.object({ key: z.string(), count });

/** The answer of every insights route (dashboard `msg`, v1 `data`). */
export const insightsAnswerSchema = z.object({
  period: z.union([z.literal(7), z.literal(30), z.literal(90)]),
  /** The period's first and last UTC day (YYYY-MM-DD), today included. */
  from: z.string(),
  to: z.string(),
  /** Reports received per UTC day, every day of the period (0 where none), oldest first. */
  reports: z.object({ total: count, perDay: z.array(z.object({ date: z.string(), count })) }),
  /** Open issues now, by status and by priority (every value, 0 where none). */
  open: z.object({
    total: count,
    byStatus: z.array(z.object({ status: z.enum(openStatuses), count })),
    byPriority: z.array(z.object({ priority: z.enum(priorities), count })),
  }),
  /**
   * Most reported in the period, most first (≤ 5 each). Pages are normalised (contracts/pages.ts);
   * `otherPages` counts reports whose page was not kept by name (a day's pages past its 50th, or none).
   */
  top: z.object({
    pages: z.array(entry),
    otherPages: count,
    browsers: z.array(entry),
    systems: z.array(entry),
    devices: z.array(entry),
  }),
  /** Issues resolved in the period and their time from report to resolved (seconds), within `relativeError`. */
  resolve: z.object({
    resolved: count,
    median: z.number().nullable(),
    p90: z.number().nullable(),
    relativeError: z.number(),
  }),
  /** The oldest open issues, oldest first (a team's across its projects). */
  oldestOpen: z.array(
    z.object({
      projectId: z.string(),
      projectName: z.string(),
      number: z.number().int(),
      title: z.string(),
      createdAt: z.string(),
      status: z.enum(issueStatuses),
    }),
  ),
  /** The projects counted (one for a project's insights). */
  projects: z.array(z.object({ id: z.string(), name: z.string() })),
});
export type InsightsAnswer = z.infer<typeof insightsAnswerSchema>;
