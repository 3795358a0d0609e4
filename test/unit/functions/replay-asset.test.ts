/**
 * What the replay asset proxy (functions/issues/replay-asset.ts) takes a file's first bytes to prove: the
 * picture and font types it answers, an svg only as a document that starts as one, and nothing for HTML,
 * scripts or an empty answer. The route itself runs in test/integration/replay-asset.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { sniffAsset } from '../../../functions/issues/replay-asset';

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));

describe('the replay asset proxy: a file proved by its bytes', () => {
  it.each([
    ['png', bytes('\x89PNG\r\n\x1a\n', [0, 0, 0, 13]), 'image/png'],
    ['jpeg', bytes([0xff, 0xd8, 0xff, 0xe0]), 'image/jpeg'],
    ['gif87', bytes('GIF87a', [1, 0]), 'image/gif'],
    ['gif89', bytes('GIF89a', [1, 0]), 'image/gif'],
    ['webp', bytes('RIFF', [0x24, 0, 0, 0], 'WEBPVP8 '), 'image/webp'],
    ['avif', bytes([0, 0, 0, 0x1c], 'ftypavif', [0, 0, 0, 0]), 'image/avif'],
    ['avif sequence', bytes([0, 0, 0, 0x1c], 'ftypavis'), 'image/avif'],
    ['woff2', bytes('wOF2', [0, 1, 0, 0]), 'font/woff2'],
    ['woff', bytes('wOFF', [0, 1, 0, 0]), 'font/woff'],
    ['otf', bytes('OTTO', [0, 10]), 'font/otf'],
    ['ttf', bytes([0, 1, 0, 0, 0, 10]), 'font/ttf'],
    ['svg', bytes('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'image/svg+xml'],
    ['svg after a declaration', bytes([0xef, 0xbb, 0xbf], '<?xml version="1.0"?>\n<svg>'), 'image/svg+xml'],
    [
      'svg after comments and a doctype',
      bytes('<!-- a -->\n<!DOCTYPE svg PUBLIC "x">\n<svg\n>'),
      'image/svg+xml',
    ],
  ])('%s', (_name, file, type) => {
    expect(sniffAsset(file)?.type).toBe(type);
  });

  it.each([
    ['HTML', bytes('<!doctype html><html><body>hi')],
    ['HTML with an svg inside', bytes('<html><svg></svg></html>')],
    ['a script', bytes('alert(1)')],
    ['JSON', bytes('{"svg": 1}')],
    ['an MP4 (ftyp, not avif)', bytes([0, 0, 0, 0x18], 'ftypmp42')],
    ['a RIFF that is no WebP', bytes('RIFF', [0, 0, 0, 0], 'WAVE')],
    ['an svg-like element name', bytes('<svgfoo>')],
    ['nothing', bytes()],
  ])('not %s', (_name, file) => {
    expect(sniffAsset(file)).toBeNull();
  });
});
