import { describe, expect, it } from 'vitest';
import { contentDisposition, downloadName, downloadNamePattern } from '../../../functions/issues/downloads';
import { blockCounts, SEARCH_TEXT_MAX, searchText } from '../../../functions/issues/issue';
import { searchedNumber } from '../../../functions/issues/review';
import {
  scrollAnchorId,
  snapshotMeta,
  snapshotViewDocument,
  snapshotViewPolicy,
} from '../../../functions/issues/snapshot-view';

describe('contentDisposition', () => {
  it('gives an ASCII fallback and the exact name as RFC 6266 filename*', () => {
    expect(contentDisposition('attachment', 'report.pdf')).toBe(
      `attachment; filename="report.pdf"; filename*=UTF-8''report.pdf`,
    );
    expect(contentDisposition('attachment', 'Rechnung "März"; (2).pdf')).toBe(
      `attachment; filename="Rechnung _M_rz__ (2).pdf"; filename*=UTF-8''Rechnung%20%22M%C3%A4rz%22%3B%20%282%29.pdf`,
    );
    expect(contentDisposition('inline', 'a\r\nb.png')).toBe(
      `inline; filename="a__b.png"; filename*=UTF-8''a%0D%0Ab.png`,
    );
  });
});

describe('the name a download is offered under (issue 19)', () => {
  const stored = (ext: string) => `0b8e7f3c-1d2a-4b5c-9e8f-123456789abc.${ext}`;
  it.each([
    ['report.pdf', 'pdf', 'report.pdf'],
    ['Photo.JPEG', 'jpg', 'Photo.JPEG'],
    ['evil.html', 'txt', 'evil.html.txt'],
    ['x.svg', 'png', 'x.svg.png'],
    ['invoice\u202Efdp.exe', 'pdf', 'invoicefdp.exe.pdf'],
    ['a\u0000b\u200B.exe', 'zip', 'ab.exe.zip'],
    ['../../etc/passwd', 'txt', '_.._etc_passwd.txt'],
    ['README', 'txt', 'README.txt'],
    ['\u202E', 'png', stored('png')],
    [undefined, 'html', stored('html')],
  ])('%j stored as .%s downloads as %j', (original, ext, expected) => {
    expect(downloadName(original, stored(ext))).toBe(expected);
  });
});

describe('download names', () => {
  it.each([
    ['0b8e7f3c-1d2a-4b5c-9e8f-123456789abc.png', true],
    ['0b8e7f3c-1d2a-4b5c-9e8f-123456789abc.html', true],
    ['../0b8e7f3c-1d2a-4b5c-9e8f-123456789abc.png', false],
    ['0b8e7f3c-1d2a-4b5c-9e8f-123456789abc.png/..', false],
    ['x.png', false],
    ['0B8E7F3C-1D2A-4B5C-9E8F-123456789ABC.png', false],
  ])('%s → %s', (name, ok) => {
    expect(downloadNamePattern.test(name)).toBe(ok);
  });
});

describe('blockCounts', () => {
  it("reads one list's per-block counts, newest block first", () => {
    expect(
      blockCounts(
        { pk: 'P', sk: 'STATS', open_000000: 3, open_000002: 1, resolved_000001: 4, open_x: 9 },
        'open',
      ),
    ).toEqual([
      [2, 1],
      [0, 3],
    ]);
    expect(blockCounts({ resolved_000001: 4 }, 'resolved')).toEqual([[1, 4]]);
  });
});

describe('the snapshot as the dashboard shows it (issue 19)', () => {
  const meta = (m: object) =>
    `<meta name="snag-snapshot" content="${JSON.stringify(m).replace(/&/g, '&amp;').replace(/"/g, '&quot;')}">`;
  const page = (m: object) =>
    `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><base href="https://shop.example/a?x=1&amp;y=2">${meta(
      m,
    )}<title>Shop</title></head><body><script>alert(1)</script><p>Hi</p></body></html>`;

  it("reads the widget's record of the scroll position and viewport", () => {
    const html = page({
      url: 'https://shop.example/?a=1&b="2"',
      scrollX: 0,
      scrollY: 1234.5,
      width: 390,
      height: 844,
      devicePixelRatio: 3,
    });
    expect(snapshotMeta(html)).toEqual({
      scrollX: 0,
      scrollY: 1235,
      width: 390,
      height: 844,
      devicePixelRatio: 3,
    });
    // Missing, malformed or absurd records show the page from the top.
    expect(snapshotMeta('<!DOCTYPE html><html><body>x')).toBeNull();
    expect(snapshotMeta('<meta name="snag-snapshot" content="{nope">')).toBeNull();
    expect(snapshotMeta(page({ scrollY: 10, width: 1e9, height: 800 }))).toBeNull();
    expect(snapshotMeta(page({ scrollY: -5, width: 800, height: 600, devicePixelRatio: 'x' }))).toEqual({
      scrollX: 0,
      scrollY: 0,
      width: 800,
      height: 600,
      devicePixelRatio: 1,
    });
  });

  it('puts a no-script policy first, keeps the doctype, and anchors the scroll position', () => {
    const html = page({ scrollX: 0, scrollY: 1500, width: 1280, height: 720, devicePixelRatio: 1 });
    const doc = snapshotViewDocument(html, snapshotMeta(html));
    // The doctype stays first (standards mode); the policy comes before anything of the visitor's.
    expect(doc.startsWith('<!DOCTYPE html><meta http-equiv="Content-Security-Policy"')).toBe(true);
    expect(doc.indexOf('Content-Security-Policy')).toBeLessThan(doc.indexOf('<script>'));
    expect(doc).toContain('<meta name="referrer" content="no-referrer">');
    for (const d of ["script-src 'none'", "default-src 'none'", "connect-src 'none'", "form-action 'none'"])
      expect(snapshotViewPolicy).toContain(d);
    // Images, styles and fonts may load from the customer's site; the widget's <base> still applies.
    expect(snapshotViewPolicy).toContain('img-src data: blob: http: https:');
    expect(snapshotViewPolicy).toContain('font-src data: http: https:');
    expect(snapshotViewPolicy).toContain('base-uri http: https:');
    expect(snapshotViewPolicy).not.toMatch(/unsafe-eval|script-src [^;]*(http|unsafe-inline)/);
    expect(doc.endsWith('</html>')).toBe(false);
    expect(doc).toMatch(
      new RegExp(
        `<div id="${scrollAnchorId}" aria-hidden="true" style="position:absolute!important;.*top:1500px!important;left:0px!important;.*height:720px!important;`,
      ),
    );
    // No record: no anchor, the page as it is.
    expect(snapshotViewDocument('<p>x</p>', null)).toBe(
      `<meta http-equiv="Content-Security-Policy" content="${snapshotViewPolicy}"><meta name="referrer" content="no-referrer"><p>x</p>`,
    );
  });
});

describe('search (issue 19)', () => {
  const issue = {
    title: 'Checkout BROKEN',
    msg: `${'long words '.repeat(400)}END`,
    data: {
      username: 'Visitor@Example.org',
      href: 'https://shop.example/Cart?step=2',
      customFields: [
        { name: 'Customer', value: 'C-1042' },
        { name: 'Plan', value: '' },
      ],
    },
  } as unknown as Parameters<typeof searchText>[0];

  it('searches the reporter, the page and custom field values, however long the description', () => {
    const q = searchText(issue);
    expect(q.length).toBe(SEARCH_TEXT_MAX);
    for (const part of [
      'checkout broken',
      'visitor@example.org',
      'https://shop.example/cart?step=2',
      'c-1042',
    ])
      expect(q).toContain(part);
    expect(q).not.toContain('END');
  });

  it('reads a number search as the issue number', () => {
    expect(searchedNumber('42')).toBe(42);
    expect(searchedNumber(' #42 ')).toBe(42);
    expect(searchedNumber('# 7')).toBe(7);
    for (const s of ['0', '042', '4 2', '42a', 'x', '', '12345678901']) expect(searchedNumber(s)).toBeNull();
  });
});
