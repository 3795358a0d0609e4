/**
 * Similar reports' signals and score (docs/similar.md): the normalised page, error and request, shingles and
 * MinHash, the screenshot's dHash (through a real PNG), and the score with its reasons.
 */

import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import type { LogEntry } from '#contracts/intake';
import { normalisePage, pageLimits } from '#contracts/pages';
import { similarReasons } from '#contracts/similar';
import { pngGray } from '../../../functions/issues/png-gray';
import { indexKeysOf } from '../../../functions/issues/similar';
import { exactMatch, MIN_SCORE, scorePair } from '../../../functions/issues/similar-score';
import {
  bandKeys,
  dhash,
  firstError,
  firstFailedRequest,
  hamming,
  jaccard,
  minhash,
  normaliseMessage,
  type Signals,
  shingles,
  signalsOf,
} from '../../../functions/issues/similar-signals';

const log = (kind: LogEntry['kind'], msg: string, level: LogEntry['level'] = 'error'): LogEntry => ({
  t: 1,
  level,
  kind,
  msg,
});

describe('page normalisation', () => {
  it('keeps host and path, drops query, fragment, www and case, and generalises ids', () => {
    expect(normalisePage('https://www.Shop.example/Orders/12345?ref=mail#top')).toBe(
      'shop.example/orders/:n',
    );
    expect(normalisePage('https://shop.example/orders/3f2a9c1e-1b2c-4d5e-8f90-123456789abc/edit')).toBe(
      'shop.example/orders/:id/edit',
    );
    expect(normalisePage('https://shop.example/assets/9f86d081884c7d65/app')).toBe(
      'shop.example/assets/:id/app',
    );
    expect(normalisePage('https://shop.example/blog/page-2/')).toBe('shop.example/blog/page-:n');
    expect(normalisePage('https://shop.example/s/a1b2c3d4e5f6g7h8i9')).toBe('shop.example/s/:id');
  });

  it('reads a hash route as path, and gives the same page for two visitors of the same order screen', () => {
    expect(normalisePage('https://app.example/#/orders/77')).toBe('app.example/orders/:n');
    expect(normalisePage('https://shop.example/cart/991')).toBe(normalisePage('https://shop.example/cart/4'));
    expect(normalisePage('https://shop.example/cart')).not.toBe(
      normalisePage('https://shop.example/checkout'),
    );
  });

  it('bounds a URL of 50 segments and gives "" for what is no URL', () => {
    const long = `https://shop.example/${Array.from({ length: 50 }, (_, i) => `s${i}x`).join('/')}`;
    const page = normalisePage(long);
    expect(page.split('/')).toHaveLength(1 + pageLimits.segments + 1);
    expect(page.endsWith('/…')).toBe(true);
    expect(normalisePage('')).toBe('');
    expect(normalisePage('not a url')).toBe('');
  });
});

describe('first error and failed request', () => {
  it('generalises numbers and ids, keeps the source file without its line', () => {
    const a = firstError([
      log('network', 'GET https://shop.example/api/x 500'),
      log(
        'exception',
        "TypeError: Cannot read properties of undefined (reading 'price') https://shop.example/app.4f9a2b1c.js:120",
      ),
    ]);
    const b = firstError([
      log(
        'exception',
        "TypeError: Cannot read properties of undefined (reading 'price') https://shop.example/app.4f9a2b1c.js:98",
      ),
    ]);
    expect(a).toBe(b);
    expect(a).toContain('@ shop.example/app.');
    expect(normaliseMessage('Order 1234 failed for 3f2a9c1e-1b2c-4d5e-8f90-123456789abc')).toBe(
      'Order # failed for :id',
    );
  });

  it('skips warnings and network lines for the error, and reads the first failed request', () => {
    const logs = [
      log('console', 'deprecated', 'warn'),
      log('network', 'POST https://shop.example/api/cart/991 500'),
      log('console', 'Payment failed: 402'),
    ];
    expect(firstError(logs)).toBe('Payment failed: #');
    expect(firstFailedRequest(logs)).toBe('POST shop.example/api/cart/:n');
    expect(firstError([])).toBe('');
    expect(firstFailedRequest([log('network', 'garbage')])).toBe('');
  });
});

describe('shingles and MinHash', () => {
  it('estimates Jaccard: a paraphrase is close, another bug is far', () => {
    const a = minhash(shingles('The checkout button does nothing when I click it on the cart page'));
    const b = minhash(shingles('Clicking the checkout button on the cart page does nothing at all'));
    const c = minhash(shingles('Newsletter signup form shows a German error message'));
    expect(a).toHaveLength(64);
    expect(jaccard(a, a)).toBe(1);
    expect(jaccard(a, b)).toBeGreaterThan(0.3);
    expect(jaccard(a, c)).toBeLessThan(0.1);
  });

  it('gives identical signatures identical bands, and none for no words', () => {
    const a = minhash(shingles('cart total is wrong after coupon'));
    expect(bandKeys(a)).toEqual(bandKeys(minhash(shingles('Cart total is WRONG after coupon!'))));
    expect(minhash(shingles('😀😀😀 🔥'))).toEqual([]);
    expect(bandKeys([])).toEqual([]);
  });

  it('bounds a description of 100 KB of one word', () => {
    const started = performance.now();
    const sig = minhash(shingles('broken '.repeat(15_000)));
    expect(sig).toHaveLength(64);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

/** A page-like grayscale image: bands of text lines at offsets, shifted by `scroll` rows. */
function page(seed: number, scroll: number, width = 320, height = 240) {
  const gray = new Uint8Array(width * height).fill(245);
  for (let y = 0; y < height; y++) {
    const row = y + scroll;
    const block = Math.floor(row / 30);
    const dark = ((block * 7 + seed * 13) % 5) * 40;
    const left = ((block * 31 + seed * 17) % 6) * 20;
    if (row % 30 < 18)
      for (let x = left; x < Math.min(width, left + 120 + dark); x++) gray[y * width + x] = dark;
  }
  return gray;
}

function png(gray: Uint8Array, width: number, height: number): Uint8Array {
  const image = new PNG({ width, height });
  for (let i = 0; i < width * height; i++) {
    const v = gray[i] ?? 0;
    image.data.set([v, v, v, 255], i * 4);
  }
  return PNG.sync.write(image);
}

describe('dHash of screenshots', () => {
  it('decodes a real PNG to the same grayscale and hash', () => {
    const gray = page(1, 0);
    const decoded = pngGray(png(gray, 320, 240));
    expect(decoded).not.toBeNull();
    expect(decoded!.width).toBe(320);
    expect(dhash(decoded!.gray, 320, 240)).toBe(dhash(gray, 320, 240));
  });

  it('keeps the same page close at another scroll position, and another page far', () => {
    const a = dhash(page(1, 0), 320, 240);
    expect(a).toMatch(/^[0-9a-f]{16}$/);
    expect(hamming(a, dhash(page(1, 4), 320, 240))).toBeLessThanOrEqual(10);
    expect(hamming(a, dhash(page(4, 0), 320, 240))).toBeGreaterThan(10);
    expect(hamming(a, '')).toBe(64);
  });

  it('refuses what is no PNG, a truncated one, and one that claims 30,000 x 30,000 pixels', () => {
    expect(pngGray(new Uint8Array([1, 2, 3]))).toBeNull();
    const good = png(page(1, 0), 320, 240);
    expect(pngGray(good.subarray(0, 60))).toBeNull();
    const huge = Uint8Array.from(good);
    new DataView(huge.buffer).setUint32(16, 30_000);
    new DataView(huge.buffer).setUint32(20, 30_000);
    expect(pngGray(huge)).toBeNull();
  });
});

const base = (over: Partial<Signals> = {}): Signals => ({
  page: 'shop.example/checkout',
  error: "TypeError: Cannot read properties of undefined (reading 'price')",
  request: '',
  minhash: minhash(shingles('checkout button does nothing')),
  dhash: '',
  ...over,
});

describe('score and reasons', () => {
  it('names same page and same error first, and scores it high', () => {
    const m = scorePair(base(), base({ minhash: minhash(shingles('pay button dead on checkout')) }));
    expect(m?.reasons[0]).toBe('same_page_and_error');
    expect(m!.score).toBeGreaterThanOrEqual(0.5);
    expect(exactMatch(base(), base())).toBe(true);
  });

  it('keeps reasons in the order of strength, and the score symmetric with two decimals', () => {
    const a = base({ request: 'POST shop.example/api/pay', dhash: '0f0f0f0f0f0f0f0f' });
    const b = base({ error: 'other', request: 'POST shop.example/api/pay', dhash: '0f0f0f0f0f0f0f0e' });
    const m = scorePair(a, b)!;
    expect(m.reasons).toEqual([
      'same_failed_request',
      'same_page',
      'similar_description',
      'similar_screenshot',
    ]);
    expect(m.reasons).toEqual(similarReasons.filter((r) => m.reasons.includes(r)));
    expect(scorePair(b, a)).toEqual(m);
    expect(Math.round(m.score * 100)).toBe(m.score * 100);
  });

  it('suggests nothing for a shared page alone, or for nothing in common', () => {
    const other = minhash(shingles('newsletter form in german'));
    expect(scorePair(base({ error: '' }), base({ error: '', minhash: other }))).toBeNull();
    expect(scorePair(base(), base({ page: 'x/y', error: 'z', minhash: other }))?.score ?? 0).toBeLessThan(
      MIN_SCORE,
    );
    expect(exactMatch(base({ error: '' }), base({ error: '' }))).toBe(false);
  });
});

describe('index keys', () => {
  it('indexes page, error, page+error, request, 16 description bands and 4 screenshot bands, no raw text', () => {
    const s = signalsOf({
      title: 'Checkout broken',
      msg: 'The pay button does nothing',
      href: 'https://shop.example/checkout',
      logs: [log('console', 'Payment failed'), log('network', 'POST https://shop.example/api/pay 500')],
      screenshot: { gray: page(1, 0), width: 320, height: 240 },
    });
    const keys = indexKeysOf(s);
    expect(keys.map((k) => k.kind)).toEqual([
      'p',
      'e',
      'pe',
      'r',
      ...Array(16).fill('b'),
      ...Array(4).fill('d'),
    ]);
  });
});
