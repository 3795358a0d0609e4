/**
 * The rank indexes' invariant (docs/data-model.md 4.5, 4.13), for tests and operators: everything the
 * lists count and index is recomputed from the issue headers and compared with what is stored. An empty
 * answer means consistent. Reads the project's whole partition: a check, never a request path.
 */
import { queryAll } from '#runtime/db';
import { projectPartition } from '../projects/project';
import { blockOf, isIssueHeader, listOfDeleted } from './issue';
import { facetsOf, listOfStatus } from './rank-index';
import { stateOf } from './triage';

const b6 = (b: number) => String(b).padStart(6, '0');

/** Counts and offsets per block of a set of numbers (issue numbers or u values). */
function byBlock(values: number[]): Map<number, number[]> {
  const out = new Map<number, number[]>();
  for (const v of values) {
    const { b, off } = blockOf(v);
    out.set(b, [...(out.get(b) ?? []), off]);
  }
  return out;
}

const sortedSet = (s: unknown) =>
  [...((s as Set<number> | undefined) ?? [])]
    .map(Number)
    .sort((x, y) => x - y)
    .join(',');
const sortedList = (l: number[]) => [...l].sort((x, y) => x - y).join(',');

/** The differences between project `pid`'s stored index items and what its headers say they must be. */
export async function checkRankIndex(pid: string): Promise<string[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': projectPartition(pid) },
    ConsistentRead: true,
  });
  const meta = items.find((i) => i.sk === 'META') ?? {};
  const bySk = new Map(items.map((i) => [String(i.sk), i]));
  const headers = items.filter(isIssueHeader);
  const problems: string[] = [];

  // 4.5: META's counters, STATS and BLOCK per list; `deleted` agrees with the status.
  for (const list of ['open', 'resolved'] as const) {
    const numbers = headers.filter((h) => listOfDeleted(h.deleted) === list).map((h) => Number(h.number));
    if (Number(meta[`${list}Count`] ?? 0) !== numbers.length)
      problems.push(`META ${list}Count ${meta[`${list}Count`]} ≠ ${numbers.length}`);
    const stats = bySk.get('STATS') ?? {};
    const blocks = byBlock(numbers);
    for (const [k, v] of Object.entries(stats)) {
      const m = new RegExp(`^${list}_(\\d{6})$`).exec(k);
      if (m && Number(v) !== (blocks.get(Number(m[1]))?.length ?? 0))
        problems.push(`STATS ${k} ${v} ≠ ${blocks.get(Number(m[1]))?.length ?? 0}`);
    }
    for (const [b, offs] of blocks) {
      if (Number(stats[`${list}_${b6(b)}`] ?? 0) !== offs.length)
        problems.push(`STATS ${list}_${b6(b)} missing`);
      const stored = sortedSet(bySk.get(`BLOCK#${b6(b)}`)?.[`${list}Offsets`]);
      if (stored !== sortedList(offs))
        problems.push(`BLOCK#${b6(b)} ${list} ${stored} ≠ ${sortedList(offs)}`);
    }
  }
  for (const h of headers) {
    const state = stateOf(h);
    if (listOfStatus(state.fields.status) !== listOfDeleted(h.deleted))
      problems.push(`ISSUE ${h.number}: status ${state.fields.status} with deleted ${h.deleted}`);
  }

  // 4.13: every indexed header (with `u`) in exactly its facets, and in the `updated` order.
  const indexed = headers.filter((h) => h.u !== undefined);
  const facets = new Map<string, number[]>();
  const updated = new Map<string, Map<number, number>>();
  for (const h of indexed) {
    const state = stateOf(h);
    for (const f of facetsOf(state.fields)) facets.set(f, [...(facets.get(f) ?? []), Number(h.number)]);
    const list = listOfStatus(state.fields.status);
    updated.set(list, (updated.get(list) ?? new Map()).set(Number(h.number), Number(h.u)));
  }
  const storedFacets = new Set(
    items.flatMap((i) => (String(i.sk).startsWith('FSTATS#') ? [String(i.sk).slice(7)] : [])),
  );
  for (const f of new Set([...facets.keys(), ...storedFacets])) {
    const blocks = byBlock(facets.get(f) ?? []);
    const fstats = bySk.get(`FSTATS#${f}`) ?? {};
    const storedBlocks = new Set(
      Object.keys(fstats)
        .filter((k) => /^\d{6}$/.test(k))
        .map(Number),
    );
    for (const b of new Set([...blocks.keys(), ...storedBlocks])) {
      const want = blocks.get(b) ?? [];
      if (Number(fstats[b6(b)] ?? 0) !== want.length)
        problems.push(`FSTATS#${f} ${b6(b)} ${fstats[b6(b)]} ≠ ${want.length}`);
      const stored = sortedSet(bySk.get(`FBLOCK#${f}#${b6(b)}`)?.o);
      if (stored !== sortedList(want)) problems.push(`FBLOCK#${f}#${b6(b)} ${stored} ≠ ${sortedList(want)}`);
    }
  }
  for (const list of ['open', 'resolved'] as const) {
    const us = updated.get(list) ?? new Map<number, number>();
    const want = new Map<number, Map<number, number>>();
    for (const [n, u] of us) {
      const { b, off } = blockOf(u);
      want.set(b, (want.get(b) ?? new Map()).set(n, off));
    }
    const ustats = bySk.get(`USTATS#${list}`) ?? {};
    const storedBlocks = items.flatMap((i) => {
      const m = new RegExp(`^UBLOCK#${list}#(\\d{6})$`).exec(String(i.sk));
      return m ? [Number(m[1])] : [];
    });
    for (const b of new Set([...want.keys(), ...storedBlocks])) {
      const entries = want.get(b) ?? new Map<number, number>();
      if (Number(ustats[b6(b)] ?? 0) !== entries.size)
        problems.push(`USTATS#${list} ${b6(b)} ${ustats[b6(b)]} ≠ ${entries.size}`);
      const ublock = bySk.get(`UBLOCK#${list}#${b6(b)}`) ?? {};
      const stored = Object.entries(ublock)
        .filter(([k]) => /^i\d+$/.test(k))
        .map(([k, v]) => `${k.slice(1)}:${v}`)
        .sort()
        .join(',');
      const expected = [...entries]
        .map(([n, off]) => `${n}:${off}`)
        .sort()
        .join(',');
      if (stored !== expected) problems.push(`UBLOCK#${list}#${b6(b)} ${stored} ≠ ${expected}`);
    }
  }
  return problems;
}
