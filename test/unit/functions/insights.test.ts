import { describe, expect, it } from 'vitest';
import {
  browserFamily,
  bucketLow,
  bucketValue,
  deviceFamily,
  histogramQuantile,
  insightsQuerySchema,
  RESOLVE_BUCKETS,
  resolveBucket,
  resolveRelativeError,
  systemFamily,
} from '#contracts/insights';
import { normalisePage } from '#contracts/pages';
import { periodDays, resolveMark, resolveMoveActions, sumFigures } from '../../../functions/issues/insights';

describe('normalisePage', () => {
  it('groups the same page across ids, numbers, hashes, queries and hosts written differently', () => {
    const a = normalisePage('https://www.Shop.example/orders/1043/pay?step=2#top');
    const b = normalisePage('https://shop.example/orders/2210/pay');
    expect(a).toBe('shop.example/orders/:n/pay');
    expect(b).toBe(a);
    expect(normalisePage('https://app.example/u/3f2b9c1e-8d7a-4b6c-9e0f-1a2b3c4d5e6f/settings')).toBe(
      'app.example/u/:id/settings',
    );
    expect(normalisePage('https://app.example/reset/9f86d081884c7d65')).toBe('app.example/reset/:id');
    expect(normalisePage('https://app.example/people/ada%40example.org')).toBe('app.example/people/:email');
    expect(normalisePage('https://app.example/invoice-2024-118')).toBe('app.example/invoice-:n');
  });

  it('keeps words, drops the trailing slash, names the root, bounds depth and length', () => {
    expect(normalisePage('https://example.org/blog/checkout-broken/')).toBe(
      'example.org/blog/checkout-broken',
    );
    expect(normalisePage('http://example.org')).toBe('example.org/');
    const deep = normalisePage(`https://example.org/${'a/'.repeat(20)}`);
    expect(deep).toBe('example.org/a/a/a/a/a/a/a/a/…');
    expect(normalisePage(`https://example.org/${'x'.repeat(500)}`).length).toBeLessThanOrEqual(200);
  });

  it('answers nothing for what is not a web address', () => {
    for (const bad of ['', 'not a url', 'javascript:alert(1)', 'file:///etc/passwd', undefined, null])
      expect(normalisePage(bad)).toBe('');
  });
});

describe('families', () => {
  it('maps what the widget reports onto closed lists, anything else to other', () => {
    expect(browserFamily('Chrome')).toBe('chrome');
    expect(browserFamily('Samsung Internet')).toBe('samsung');
    expect(browserFamily('Edge')).toBe('edge');
    expect(browserFamily('<script>')).toBe('other');
    expect(systemFamily('iOS')).toBe('ios');
    expect(systemFamily('macOS')).toBe('macos');
    expect(systemFamily('Chrome OS')).toBe('chromeos');
    expect(systemFamily('Unknown')).toBe('other');
    expect(deviceFamily('Tablet')).toBe('tablet');
    expect(deviceFamily(undefined)).toBe('desktop');
    expect(deviceFamily('Fridge')).toBe('other');
  });
});

describe('resolve-time buckets', () => {
  it('puts every duration in the bucket whose edges hold it', () => {
    expect(resolveBucket(0)).toBe(0);
    expect(resolveBucket(59.9)).toBe(0);
    expect(resolveBucket(60)).toBe(1);
    expect(resolveBucket(Number.NaN)).toBe(0);
    for (let s = 60; s < 3e8; s *= 1.07) {
      const k = resolveBucket(s);
      expect(bucketLow(k)).toBeLessThanOrEqual(s * (1 + 1e-12));
      if (k < RESOLVE_BUCKETS - 1) expect(bucketLow(k + 1)).toBeGreaterThan(s);
    }
    // Exact edges belong to the bucket they open.
    for (let k = 1; k < 60; k++) expect(resolveBucket(bucketLow(k))).toBe(k);
    expect(resolveBucket(1e12)).toBe(RESOLVE_BUCKETS - 1);
  });

  it('reads a bucket within the documented relative error of anything it holds', () => {
    expect(resolveRelativeError).toBeCloseTo(2 ** (1 / 8) - 1, 10);
    expect(resolveRelativeError).toBeLessThan(0.091);
    for (let s = 60; s < 3e8; s *= 1.013) {
      const shown = bucketValue(resolveBucket(s));
      expect(Math.abs(shown - s) / s).toBeLessThanOrEqual(resolveRelativeError + 1e-9);
    }
  });

  it('reads median and p90 of a histogram within the bound of the exact nearest-rank values', () => {
    // 1,000 durations from a minute to a month, skewed like real fixing times.
    const durations = Array.from({ length: 1000 }, (_, i) => 60 * Math.exp((i / 999) * Math.log(43_200)));
    const hist = new Map<number, number>();
    for (const d of durations) hist.set(resolveBucket(d), (hist.get(resolveBucket(d)) ?? 0) + 1);
    const sorted = [...durations].sort((a, b) => a - b);
    const exact = (q: number) => sorted[Math.ceil(q * sorted.length) - 1]!;
    for (const q of [0.5, 0.9]) {
      const read = histogramQuantile(hist, q)!;
      expect(Math.abs(read - exact(q)) / exact(q)).toBeLessThanOrEqual(resolveRelativeError + 1e-9);
    }
    expect(histogramQuantile(new Map(), 0.5)).toBeNull();
    expect(histogramQuantile(new Map([[5, 0]]), 0.5)).toBeNull();
  });
});

describe('moves as insights count them', () => {
  const created = '2026-11-01T10:00:00.000Z';
  it('a resolve adds its bucket on its day and records it; a restore takes exactly that back', () => {
    const at = '2026-11-03T10:00:00.000Z';
    const resolve = resolveMoveActions('p1', { createdAt: created }, 'resolved', at);
    const mark = resolveMark(created, at);
    expect(mark).toBe(`2026-11-03#${resolveBucket(2 * 86_400)}`);
    expect(resolve.set?.values[':insR']).toBe(mark);
    expect(resolve.condition.expression).toBe('attribute_not_exists(insR)');
    const add = resolve.actions[0]!.Update!;
    expect(add.Key).toEqual({ pk: 'PROJECT#p1', sk: 'INSIGHTS#2026-11-03' });
    expect(Object.values(add.ExpressionAttributeValues ?? {})).toEqual([1]);

    const restore = resolveMoveActions(
      'p1',
      { createdAt: created, insR: mark },
      'open',
      '2026-11-20T00:00:00Z',
    );
    expect(restore.remove).toBe('insR');
    expect(restore.condition.values[':insR0']).toBe(mark);
    const back = restore.actions[0]!.Update!;
    expect(back.Key).toEqual(add.Key);
    expect(back.ExpressionAttributeNames).toEqual(add.ExpressionAttributeNames);
    expect(Object.values(back.ExpressionAttributeValues ?? {})).toEqual([-1]);
  });

  it('a restore of an issue resolved before counting began takes nothing back', () => {
    expect(resolveMoveActions('p1', { createdAt: created }, 'open', created).actions).toEqual([]);
  });
});

describe('summing figures', () => {
  const now = Date.parse('2026-11-29T12:00:00Z');
  it('lists every day of the period, today last, and sums projects', () => {
    const days = periodDays(7, now);
    expect(days).toEqual([
      '2026-11-23',
      '2026-11-24',
      '2026-11-25',
      '2026-11-26',
      '2026-11-27',
      '2026-11-28',
      '2026-11-29',
    ]);
    const project = (id: string, r: number) => ({
      id,
      name: id,
      openCount: 4,
      // in_progress, in_review, then low, medium, high, urgent
      facets: [{ '000000': 1 }, undefined, undefined, { '000000': 2 }, undefined, undefined],
      dayItems: [
        {
          sk: 'INSIGHTS#2026-11-29',
          r,
          b_chrome: r,
          o_windows: r,
          d_desktop: r,
          p_abc: r,
          pl_abc: 'shop.example/checkout',
          p_other: 1,
          t_10: 1,
        },
        // Outside the period: never summed.
        { sk: 'INSIGHTS#2026-10-01', r: 100 },
      ],
      oldest: [
        {
          number: 1,
          title: `${id} first`,
          createdAt: `2026-0${id === 'a' ? 2 : 1}-01T00:00:00Z`,
          status: 'new',
        },
      ],
    });
    const answer = sumFigures(7, days, [project('a', 3), project('b', 2)]);
    expect(answer.reports.total).toBe(5);
    expect(answer.reports.perDay.at(-1)).toEqual({ date: '2026-11-29', count: 5 });
    expect(answer.open.total).toBe(8);
    expect(answer.open.byStatus).toEqual([
      { status: 'new', count: 6 },
      { status: 'in_progress', count: 2 },
      { status: 'in_review', count: 0 },
    ]);
    expect(answer.open.byPriority.find((p) => p.priority === 'none')?.count).toBe(4);
    expect(answer.top.pages).toEqual([{ key: 'shop.example/checkout', count: 5 }]);
    expect(answer.top.otherPages).toBe(2);
    expect(answer.top.browsers).toEqual([{ key: 'chrome', count: 5 }]);
    expect(answer.resolve.resolved).toBe(2);
    expect(answer.resolve.median).toBeCloseTo(bucketValue(10));
    expect(answer.oldestOpen.map((o) => o.projectId)).toEqual(['b', 'a']);
  });
});

describe('the period query', () => {
  it('takes 7, 30 or 90 (30 by default) and refuses anything else', () => {
    expect(insightsQuerySchema.parse({}).period).toBe(30);
    expect(insightsQuerySchema.parse({ period: '90' }).period).toBe(90);
    for (const bad of ['1', '365', '-7', 'abc', '7.0'])
      expect(insightsQuerySchema.safeParse({ period: bad }).success).toBe(false);
    // The dashboard's German calls carry `lng`, read by the pipeline.
    expect(insightsQuerySchema.parse({ period: '7', lng: 'de' })).toEqual({ period: 7 });
  });
});
