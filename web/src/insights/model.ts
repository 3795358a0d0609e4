/** Insights' pure rules: how a duration reads, and a family's name (covered by test/unit/web/insights.test.ts). */

/** A duration in seconds as the largest unit that keeps it readable: minutes under 2 h, hours under 2 days, then days. */
export function durationParts(seconds: number): { unit: 'minutes' | 'hours' | 'days'; count: number } {
  const minutes = seconds / 60;
  if (minutes < 120) return { unit: 'minutes', count: Math.max(1, Math.round(minutes)) };
  const hours = minutes / 60;
  if (hours < 48) return { unit: 'hours', count: Math.round(hours) };
  return { unit: 'days', count: Math.round(hours / 24) };
}

/** A YYYY-MM-DD day as a short date in the reader's language ("3 Nov", "3. Nov."), in UTC like the counters. */
export function shortDay(day: string, lang: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(d.getTime())) return day;
  return new Intl.DateTimeFormat(lang, { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(d);
}
