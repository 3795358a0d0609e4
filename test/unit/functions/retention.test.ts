/**
 * Retention's date arithmetic (docs/retention.md "When"): an issue resolved more than N whole days of 24 h
 * before the run is past its period; one resolved less long ago, or exactly then, is kept; and the choices
 * a project has.
 */
import { describe, expect, it } from 'vitest';
import { retentionPeriods, widgetSettingsSchema } from '#contracts/schemas';
import { isPastRetention, retentionCutoff } from '../../../functions/issues/retention';

const at = (iso: string) => Date.parse(iso);

describe('retention dates', () => {
  it('deletes an issue resolved 31 days ago under 30 days, and keeps one resolved 29 days ago', () => {
    const now = at('2027-01-01T12:00:00.000Z');
    expect(isPastRetention('2026-12-01T11:59:59.999Z', now, 30)).toBe(true);
    expect(isPastRetention('2026-12-03T12:00:00.000Z', now, 30)).toBe(false);
  });

  it('keeps an issue resolved exactly N days ago until the next run, and counts whole 24 h days across a DST change', () => {
    const now = at('2027-04-01T03:30:00.000Z');
    expect(retentionCutoff(now, 30)).toBe('2027-03-02T03:30:00.000Z');
    expect(isPastRetention('2027-03-02T03:30:00.000Z', now, 30)).toBe(false);
    expect(isPastRetention('2027-03-02T03:29:59.999Z', now, 30)).toBe(true);
  });

  it('crosses a leap day and a year: 365 days before 2028-03-01 is 2027-03-02', () => {
    expect(retentionCutoff(at('2028-03-01T00:00:00.000Z'), 365)).toBe('2027-03-02T00:00:00.000Z');
    expect(retentionCutoff(at('2027-01-15T00:00:00.000Z'), 90)).toBe('2026-10-17T00:00:00.000Z');
    expect(retentionCutoff(at('2027-01-15T00:00:00.000Z'), 180)).toBe('2026-07-19T00:00:00.000Z');
  });

  it('compares as the index sorts: ISO strings of one length, so string order is time order', () => {
    const now = at('2027-01-01T00:00:00.000Z');
    const resolved = ['2026-11-30T23:59:59.999Z', '2026-12-02T00:00:00.000Z', '2026-01-01T00:00:00.000Z'];
    const past = resolved.filter((r) => isPastRetention(r, now, 30)).sort();
    expect(past).toEqual(['2026-01-01T00:00:00.000Z', '2026-11-30T23:59:59.999Z']);
  });
});

describe('the setting', () => {
  it('offers 30, 90, 180 and 365 days or forever (null, the default); anything else is refused', () => {
    expect(retentionPeriods).toEqual([30, 90, 180, 365]);
    expect(widgetSettingsSchema.parse({}).retentionDays).toBeNull();
    for (const d of [30, 90, 180, 365, null])
      expect(widgetSettingsSchema.parse({ retentionDays: d }).retentionDays).toBe(d);
    for (const d of [0, 1, 31, 366, -30, '30', 30.5, 'forever'])
      expect(widgetSettingsSchema.safeParse({ retentionDays: d }).success, String(d)).toBe(false);
  });
});
