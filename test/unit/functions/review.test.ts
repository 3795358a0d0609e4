import { describe, expect, it } from 'vitest';
import { blockCounts } from '../../../functions/issues/issues';
import { contentDisposition, downloadName, downloadNamePattern } from '../../../functions/issues/review';

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
