/**
 * A PNG's grayscale pixels, for the screenshot's dHash (similar-signals.ts). Reads what the widget and the
 * browser extension send (8-bit gray, RGB, gray+alpha and RGBA, not interlaced, which is what canvas
 * `toBlob('image/png')` writes); anything else, and anything malformed, is null: the report simply has no
 * screenshot signal. Hostile input is bounded: at most MAX_PIXELS pixels are inflated (a PNG that claims
 * 30,000 x 30,000 is refused from its header before anything is allocated), and inflation stops at the size
 * the header allows. Hand-written (node:zlib does the work) because a dependency would be larger than this.
 */
import { inflateSync } from 'node:zlib';

/** A 1920 x 1080 viewport at DPR 2 is 8.3 M (33 MB inflated as RGBA); viewport captures stay below this. */
export const MAX_PIXELS = 16_000_000;

const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 4: 2, 6: 4 };

export interface GrayImage {
  gray: Uint8Array;
  width: number;
  height: number;
}

const SIGNATURE = [137, 80, 78, 71, 13, 10, 26, 10];

export function pngGray(bytes: Uint8Array): GrayImage | null {
  if (bytes.length < 33 || SIGNATURE.some((b, i) => bytes[i] !== b)) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const data: Uint8Array[] = [];
  while (at + 8 <= bytes.length) {
    const length = view.getUint32(at);
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    const body = bytes.subarray(at + 8, at + 8 + length);
    if (body.length !== length) return null;
    if (type === 'IHDR') {
      if (length < 13) return null;
      width = view.getUint32(at + 8);
      height = view.getUint32(at + 12);
      const [depth, colour, , , interlace] = body.subarray(8, 13);
      channels = CHANNELS[colour ?? -1] ?? 0;
      if (depth !== 8 || !channels || interlace !== 0) return null;
      if (width === 0 || height === 0 || width * height > MAX_PIXELS) return null;
    } else if (type === 'IDAT') data.push(body);
    else if (type === 'IEND') break;
    at += 12 + length;
  }
  if (!channels || data.length === 0) return null;
  const stride = width * channels;
  let raw: Buffer;
  try {
    raw = inflateSync(Buffer.concat(data), { maxOutputLength: (stride + 1) * height });
  } catch {
    return null;
  }
  if (raw.length < (stride + 1) * height) return null;
  const gray = new Uint8Array(width * height);
  let prev = new Uint8Array(stride);
  let line = new Uint8Array(stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)] ?? 0;
    const src = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let i = 0; i < stride; i++) {
      const a = i >= channels ? (line[i - channels] ?? 0) : 0;
      const b = prev[i] ?? 0;
      const c = i >= channels ? (prev[i - channels] ?? 0) : 0;
      let v = src[i] ?? 0;
      if (filter === 1) v += a;
      else if (filter === 2) v += b;
      else if (filter === 3) v += (a + b) >> 1;
      else if (filter === 4) {
        const p = a + b - c;
        const pa = Math.abs(p - a);
        const pb = Math.abs(p - b);
        const pc = Math.abs(p - c);
        v += pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      } else if (filter !== 0) return null;
      line[i] = v & 0xff;
    }
    for (let x = 0; x < width; x++) {
      const o = x * channels;
      const r = line[o] ?? 0;
      gray[y * width + x] =
        channels >= 3 ? (r * 299 + (line[o + 1] ?? 0) * 587 + (line[o + 2] ?? 0) * 114) / 1000 : r;
    }
    [prev, line] = [line, prev];
  }
  return { gray, width, height };
}
