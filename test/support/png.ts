/**
 * A minimal PNG encoder for test assets (images for the capture bench and the capture e2e test), so the
 * tests need no image files or image library: one filled RGB rectangle, optionally with a darker diagonal
 * band so that a scaled or shifted image is not mistaken for a flat colour.
 */
import { crc32, deflateSync } from 'node:zlib';

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

export function png(
  width: number,
  height: number,
  [r, g, b]: [number, number, number],
  band = false,
): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type RGB
  const stride = 1 + width * 3;
  const raw = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const dark = band && Math.abs(x - y) < Math.max(2, width / 10);
      const at = y * stride + 1 + x * 3;
      raw[at] = dark ? r >> 1 : r;
      raw[at + 1] = dark ? g >> 1 : g;
      raw[at + 2] = dark ? b >> 1 : b;
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
