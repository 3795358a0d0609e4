/**
 * A report's similarity signals (docs/similar.md "Signals"): pure functions, no AWS. The consumer
 * (functions/consumers/similar.ts) computes them once per report after the intake, the index keys
 * (similar.ts) come from them, and the score (similar-score.ts) compares two reports by them.
 *
 * Every function here reads visitor input, so every one is bounded: it looks at a fixed prefix of its input
 * (a 100 KB description, a URL of 50 segments or a log line of 1,000 characters cost the same as a short one).
 */
import type { LogEntry } from '#contracts/intake';
import { normalisePage } from '#contracts/pages';

/** Characters of a description that are read (the rest never changes which issue it resembles). */
export const DESCRIPTION_CHARS_MAX = 8000;
/** Words of a description that are shingled. */
export const WORDS_MAX = 600;
/** Hashes in a MinHash signature; the first `BANDS * ROWS` of them form the LSH bands. */
export const MINHASH_SIZE = 64;
export const BANDS = 16;
export const ROWS = 2;
/** The 64-bit dHash is split in this many 16-bit bands: two hashes within 3 bits share at least one. */
export const DHASH_BANDS = 4;

export interface Signals {
  /** Host and path, ids generalised: `shop.example/orders/:id`; '' without a page address. */
  page: string;
  /** The first error's message, numbers and ids generalised, with its source file; '' without one. */
  error: string;
  /** The first failed request: method and normalised path (`POST shop.example/api/cart/:n`); ''. */
  request: string;
  /** MinHash of the description's shingles (unsigned 32-bit); empty when it has no words. */
  minhash: number[];
  /** dHash of the first screenshot, 16 hex digits; '' without a readable one. */
  dhash: string;
}

/** A message's variable parts generalised: addresses (normalised), uuids, hex ids, numbers. */
export function normaliseMessage(text: string): string {
  return (text.split('\n')[0] ?? '')
    .slice(0, 300)
    .replace(/https?:\/\/[^\s'"()]+/g, (u) => normalisePage(u))
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, ':id')
    .replace(/\b(?=[0-9a-f]*\d)[0-9a-f]{8,}\b/gi, ':id')
    .replace(/\d+/g, '#')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The first error: an uncaught exception (`message file:line`, as the loader writes it), a rejection or a
 * console error; its message generalised, and for an exception its source file (without the line, which
 * moves with every deploy).
 */
export function firstError(logs: readonly LogEntry[]): string {
  const entry = logs.find((l) => l.kind !== 'network' && l.level === 'error');
  if (!entry) return '';
  const msg = (entry.msg.split('\n')[0] ?? '').slice(0, 1000);
  const at = entry.kind === 'exception' ? /^(.*) (\S+):\d+$/.exec(msg) : null;
  if (at) {
    const [, message = '', file = ''] = at;
    const source = /^https?:/.test(file) ? normalisePage(file) : '';
    return `${normaliseMessage(message)}${source ? ` @ ${source}` : ''}`;
  }
  return normaliseMessage(msg);
}

/** The first failed request (`METHOD URL STATUS`, as the loader writes it): method and normalised path. */
export function firstFailedRequest(logs: readonly LogEntry[]): string {
  for (const l of logs) {
    if (l.kind !== 'network') continue;
    const m = /^([A-Z]{1,10}) (\S+) (\d{1,3})$/.exec(l.msg.slice(0, 2100));
    if (!m) continue;
    const page = normalisePage(m[2] ?? '');
    if (page) return `${m[1]} ${page}`;
  }
  return '';
}

/** Words too common to say anything about which issue a description is about (en and de). */
const STOP = new Set(
  (
    'a an and are as at be but by can do does for from has have i if in is it its me my no not of on or so ' +
    "that the this to was were when with you your we our just it's im i'm there then than too very will " +
    'der die das und ist nicht ein eine ich es im in zu mit auf den dem des bei wenn wird sich auch noch ' +
    'aber oder kann'
  ).split(' '),
);

/** Lowercased words of letters and digits, stop words out, each at most 30 characters, at most WORDS_MAX. */
export function words(text: string): string[] {
  const found: string[] = [];
  for (const m of text
    .slice(0, DESCRIPTION_CHARS_MAX)
    .toLowerCase()
    .matchAll(/[\p{L}\p{N}]+/gu)) {
    const w = m[0].slice(0, 30);
    if (STOP.has(w)) continue;
    found.push(w);
    if (found.length >= WORDS_MAX) break;
  }
  return found;
}

/**
 * The shingles of a description: its words (a paraphrase keeps most of them) and its word pairs (word order
 * tells "cart empty" from "empty cart page"), as a set.
 */
export function shingles(text: string): Set<string> {
  const w = words(text);
  const set = new Set<string>(w);
  for (let i = 0; i + 1 < w.length; i++) set.add(`${w[i]} ${w[i + 1]}`);
  return set;
}

/** FNV-1a, 32 bits. */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A 32-bit mixer (murmur3's finaliser): hash i of a shingle is mix(h ^ seed_i). */
function mix(x: number): number {
  let h = x >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

const SEEDS = Array.from({ length: MINHASH_SIZE }, (_, i) => mix(0x9e3779b9 * (i + 1)));

/** The MinHash signature of a set: per seed, the least hash of any member. Empty set: empty signature. */
export function minhash(set: ReadonlySet<string>): number[] {
  if (set.size === 0) return [];
  const sig = new Array<number>(MINHASH_SIZE).fill(0xffffffff);
  for (const s of set) {
    const h = fnv1a(s);
    for (let i = 0; i < MINHASH_SIZE; i++) {
      const v = mix(h ^ (SEEDS[i] ?? 0));
      if (v < (sig[i] ?? 0)) sig[i] = v;
    }
  }
  return sig;
}

/** The estimated Jaccard similarity of two signatures: the share of equal positions. */
export function jaccard(a: readonly number[], b: readonly number[]): number {
  if (a.length !== MINHASH_SIZE || b.length !== MINHASH_SIZE) return 0;
  let same = 0;
  for (let i = 0; i < MINHASH_SIZE; i++) if (a[i] === b[i]) same++;
  return same / MINHASH_SIZE;
}

/** The LSH band keys of a signature: two reports share a band when those ROWS hashes are all equal. */
export function bandKeys(sig: readonly number[]): string[] {
  if (sig.length !== MINHASH_SIZE) return [];
  return Array.from({ length: BANDS }, (_, b) => {
    const rows = sig.slice(b * ROWS, (b + 1) * ROWS);
    return `${b.toString(16)}${rows.map((r) => r.toString(16).padStart(8, '0')).join('')}`;
  });
}

/**
 * dHash of a grayscale image (row-major, `width * height` values): the image shrunk to 9x8 by box
 * averages, then one bit per neighbouring pair in each row (left brighter than right). 64 bits, as 16 hex.
 * Two screenshots of the same page differ in few bits; of different pages, in about half.
 */
export function dhash(gray: ArrayLike<number>, width: number, height: number): string {
  if (width < 9 || height < 8 || gray.length < width * height) return '';
  const cells = new Float64Array(9 * 8);
  for (let cy = 0; cy < 8; cy++) {
    const y0 = Math.floor((cy * height) / 8);
    const y1 = Math.max(y0 + 1, Math.floor(((cy + 1) * height) / 8));
    for (let cx = 0; cx < 9; cx++) {
      const x0 = Math.floor((cx * width) / 9);
      const x1 = Math.max(x0 + 1, Math.floor(((cx + 1) * width) / 9));
      let sum = 0;
      // A large screenshot is sampled on a grid of at most 24x24 points per cell: bounded work.
      const sy = Math.max(1, Math.floor((y1 - y0) / 24));
      const sx = Math.max(1, Math.floor((x1 - x0) / 24));
      let count = 0;
      for (let y = y0; y < y1; y += sy) {
        for (let x = x0; x < x1; x += sx) {
          sum += gray[y * width + x] ?? 0;
          count++;
        }
      }
      cells[cy * 9 + cx] = sum / count;
    }
  }
  let hex = '';
  for (let cy = 0; cy < 8; cy++) {
    let byte = 0;
    for (let cx = 0; cx < 8; cx++) {
      byte = (byte << 1) | ((cells[cy * 9 + cx] ?? 0) > (cells[cy * 9 + cx + 1] ?? 0) ? 1 : 0);
    }
    hex += byte.toString(16).padStart(2, '0');
  }
  return hex;
}

/** Bits that differ between two dHashes (64 when either is missing). */
export function hamming(a: string, b: string): number {
  if (a.length !== 16 || b.length !== 16) return 64;
  let bits = 0;
  for (let i = 0; i < 16; i += 4) {
    let x = Number.parseInt(a.slice(i, i + 4), 16) ^ Number.parseInt(b.slice(i, i + 4), 16);
    while (x) {
      bits += x & 1;
      x >>= 1;
    }
  }
  return bits;
}

/** The dHash's 16-bit bands (pigeonhole: hashes within DHASH_BANDS - 1 bits share one). */
export const dhashBands = (hash: string): string[] =>
  hash.length === 16
    ? Array.from({ length: DHASH_BANDS }, (_, i) => `${i}${hash.slice(i * 4, i * 4 + 4)}`)
    : [];

/** What the signals are computed from: the report as stored, and its first screenshot's grayscale pixels. */
export interface SignalInput {
  title: string;
  msg: string;
  href: string;
  logs: readonly LogEntry[];
  screenshot?: { gray: ArrayLike<number>; width: number; height: number } | null;
}

export function signalsOf(input: SignalInput): Signals {
  const text = `${input.title.slice(0, 300)}\n${input.msg.slice(0, DESCRIPTION_CHARS_MAX)}`;
  const logs = input.logs.slice(0, 100);
  return {
    page: normalisePage(input.href),
    error: firstError(logs),
    request: firstFailedRequest(logs),
    minhash: minhash(shingles(text)),
    dhash: input.screenshot
      ? dhash(input.screenshot.gray, input.screenshot.width, input.screenshot.height)
      : '',
  };
}
