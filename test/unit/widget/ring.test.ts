import { randomBytes } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { replayLimits } from '#contracts/intake';
import {
  type Compress,
  createRing,
  FULL_SNAPSHOT,
  META,
  pack,
  type RrEvent,
} from '../../../widget/src/activity/ring';

/** rrweb's event shapes, enough for the buffer: Meta, FullSnapshot, IncrementalSnapshot (3). */
const meta = (t: number): RrEvent => ({ type: META, timestamp: t, data: { href: 'https://shop.test/' } });
const full = (t: number): RrEvent => ({ type: FULL_SNAPSHOT, timestamp: t, data: { node: {} } });
const change = (t: number, text = 'x'): RrEvent => ({ type: 3, timestamp: t, data: { source: 0, text } });
/** A checkout as rrweb emits it: Meta, then the FullSnapshot. */
const checkout = (t: number) => [meta(t), full(t)];

const nodeGzip: Compress = async (text) => new Blob([gzipSync(text)]);
const unpack = async (blob: Blob) =>
  JSON.parse(gunzipSync(Buffer.from(await blob.arrayBuffer())).toString()) as RrEvent[];

describe('the replay ring buffer', () => {
  it('keeps nothing before the first full snapshot', () => {
    const ring = createRing();
    ring.add(change(1));
    expect(ring.has()).toBe(false);
    expect(ring.events(2)).toEqual([]);
    for (const e of checkout(10)) ring.add(e);
    expect(ring.has()).toBe(true);
    expect(ring.events(11).map((e) => e.timestamp)).toEqual([10, 10]);
  });

  it('keeps the last two checkouts: a third drops the oldest with its changes', () => {
    const ring = createRing();
    for (const t of [0, 30_000, 60_000]) {
      for (const e of checkout(t)) ring.add(e);
      ring.add(change(t + 1000));
    }
    const kept = ring.events(61_000);
    expect(kept[0]).toEqual(meta(30_000));
    expect(kept.map((e) => e.timestamp)).toEqual([30_000, 30_000, 31_000, 60_000, 60_000, 61_000]);
  });

  it('keeps at most the window: the older checkout goes once the newer covers the last 60 s', () => {
    const ring = createRing();
    for (const e of checkout(0)) ring.add(e);
    ring.add(change(5_000));
    for (const e of checkout(30_000)) ring.add(e);
    ring.add(change(31_000));
    // 75 s after the start the older segment (0…30 s) is needed for 15…30 s: kept.
    expect(ring.events(75_000)[0]!.timestamp).toBe(0);
    // At 90 s the newer one alone covers the window.
    expect(ring.events(replayLimits.windowMs + 30_000)[0]!.timestamp).toBe(30_000);
  });

  it('forgets everything on clear', () => {
    const ring = createRing();
    for (const e of checkout(0)) ring.add(e);
    ring.clear();
    expect(ring.has()).toBe(false);
    expect(ring.events(1)).toEqual([]);
  });
});

describe('packing a replay', () => {
  it('is the gzip of the events as a JSON array, with its start and end', async () => {
    const events = [...checkout(1000), change(1500), change(2500)];
    const packed = (await pack(events, nodeGzip))!;
    expect(await unpack(packed.blob)).toEqual(events);
    expect(packed).toMatchObject({ start: 1000, end: 2500 });
  });

  it('over the cap, drops the older checkout first', async () => {
    const noisy = (t: number) => change(t, Math.random().toString(36).repeat(40));
    const events = [...checkout(0), ...Array.from({ length: 200 }, (_, i) => noisy(i + 1))];
    events.push(...checkout(30_000), noisy(30_001));
    const packed = (await pack(events, nodeGzip, 3000))!;
    const kept = await unpack(packed.blob);
    expect(kept[0]).toEqual(meta(30_000));
    expect(kept).toHaveLength(3);
    expect(packed.start).toBe(30_000);
  });

  it('then drops the oldest changes, keeping the full snapshot first so the replay plays', async () => {
    const events = [...checkout(0)];
    for (let i = 1; i <= 400; i++) events.push(change(i, randomBytes(40).toString('hex')));
    const packed = (await pack(events, nodeGzip, 8000))!;
    expect(packed.blob.size).toBeLessThanOrEqual(8000);
    const kept = await unpack(packed.blob);
    expect(kept.slice(0, 2)).toEqual(checkout(0));
    const changes = kept.slice(2).map((e) => e.timestamp);
    expect(changes.length).toBeGreaterThan(0);
    expect(changes.length).toBeLessThan(400);
    // The newest ones survive, in order, without a gap.
    expect(changes.at(-1)).toBe(400);
    expect(changes).toEqual(Array.from({ length: changes.length }, (_, i) => 401 - changes.length + i));
  });

  it('gives up when even the snapshot is over the cap, or there is none', async () => {
    expect(
      await pack([meta(0), { ...full(0), data: 'y'.repeat(5000) }], async (t) => new Blob([t]), 100),
    ).toBeNull();
    expect(await pack([change(1)], nodeGzip)).toBeNull();
  });
});
