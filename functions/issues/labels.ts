/**
 * A project's labels (issue 23; docs/data-model.md 4.13 "Labels"): one item `PROJECT#<pid> / LABELS`, a map
 * id → {name, color} and a version `v`, read in the same BatchGetItem as META wherever issues are read. At
 * most 50, names unique without regard to case. Each write is conditioned on the version it read, so two
 * ADMINs adding the 50th label at once cannot make 51, and on the caller's membership (decision T4).
 * Deleting a label removes it from the map only: issues keep the id until their next change, every answer
 * drops ids that are not in the map (`triageFieldsOf(h, live)`), and the facet of a deleted label is never
 * read again (decision Tr-C4).
 */
import { randomBytes } from 'node:crypto';
import type * as z from 'zod';
import {
  type Label,
  type LabelAnswer,
  type LabelsAnswer,
  type labelSchema,
  type labelUpdateSchema,
  triageLimits,
} from '#contracts/triage';
import { isConditionFailure, type Key, retryRaces, tableName, transactWrite } from '#runtime/db';
import { AppError } from '#runtime/errors';
import { nowMs } from '#runtime/time';
import { accessGuard, type ProjectAction, readProjectAs } from '../projects/access';
import { projectKey, projectPartition } from '../projects/project';
import { teamOf } from '../teams/member';

type Item = Record<string, unknown>;

export const labelsKey = (pid: string): Key => ({ pk: projectPartition(pid), sk: 'LABELS' });

/** The labels of a stored LABELS item (absent: none), oldest first. */
export function labelsOf(item: Item | undefined): Label[] {
  const map = (item?.labels ?? {}) as Record<string, { name?: unknown; color?: unknown; at?: unknown }>;
  return Object.entries(map)
    .sort((a, b) => Number(a[1].at ?? 0) - Number(b[1].at ?? 0) || a[0].localeCompare(b[0]))
    .map(([id, l]) => ({ id, name: String(l.name ?? ''), color: String(l.color ?? '') }));
}

/** The ids of the live labels (what answers keep of an issue's `labels`). */
export const liveLabelIds = (item: Item | undefined) => new Set(Object.keys((item?.labels ?? {}) as Item));

const newLabelId = () => [...randomBytes(12)].map((b) => (b % 36).toString(36)).join('');
const sameName = (a: string, b: string) => a.toLocaleLowerCase('en') === b.toLocaleLowerCase('en');

export async function listLabels(
  userId: string,
  pid: string,
  action: ProjectAction = 'read',
): Promise<LabelsAnswer> {
  const {
    items: [labels],
  } = await readProjectAs(userId, pid, action, [labelsKey(pid)]);
  return { labels: labelsOf(labels) };
}

/**
 * Reads LABELS with the access check, lets `change` compute the new map (or refuse), and writes it while
 * the version and the caller's membership still hold; a concurrent label write makes it read again.
 */
async function changeLabels(
  userId: string,
  pid: string,
  action: ProjectAction,
  change: (map: Record<string, Item>) => Label,
): Promise<Label> {
  // Another label write won the version: read again, 20 times in all (a short jittered pause spreads the
  // next round).
  return retryRaces(
    (err) => isConditionFailure(err) && !(err instanceof AppError),
    async () => {
      const {
        project,
        caller,
        items: [item],
      } = await readProjectAs(userId, pid, action, [labelsKey(pid)]);
      const map = structuredClone((item?.labels ?? {}) as Record<string, Item>);
      const label = change(map);
      const v = Number(item?.v ?? 0);
      const guard = accessGuard(caller, teamOf(project as { teamId?: unknown }), action, pid);
      await transactWrite(
        [
          {
            Put: {
              TableName: tableName(),
              Item: { ...labelsKey(pid), labels: map, v: v + 1 },
              ConditionExpression: v === 0 ? 'attribute_not_exists(pk)' : 'v = :v',
              ...(v === 0 ? {} : { ExpressionAttributeValues: { ':v': v } }),
            },
          },
          {
            ConditionCheck: {
              TableName: tableName(),
              Key: projectKey(pid),
              ConditionExpression: guard.expression,
              ExpressionAttributeValues: guard.values,
            },
          },
          ...(guard.checks ?? []),
        ],
        (failed) => (failed.some((i) => i >= 1) ? 'NOT_FOUND' : undefined),
      );
      return label;
    },
    20,
    (attempt) => Math.random() * 20 * Math.min(attempt, 5),
  );
}

export async function createLabel(
  userId: string,
  pid: string,
  body: z.infer<typeof labelSchema>,
  action: ProjectAction = 'labels',
): Promise<LabelAnswer> {
  const label = await changeLabels(userId, pid, action, (map) => {
    const names = Object.values(map).map((l) => String(l.name));
    if (names.length >= triageLimits.labelsPerProject) throw new AppError('LABEL_LIMIT');
    if (names.some((n) => sameName(n, body.name))) throw new AppError('LABEL_EXISTS');
    const id = newLabelId();
    map[id] = { name: body.name, color: body.color, at: nowMs() };
    return { id, ...body };
  });
  return { label };
}

export async function updateLabel(
  userId: string,
  pid: string,
  labelId: string,
  body: z.infer<typeof labelUpdateSchema>,
  action: ProjectAction = 'labels',
): Promise<LabelAnswer> {
  const label = await changeLabels(userId, pid, action, (map) => {
    const current = map[labelId];
    if (!current) throw new AppError('NOT_FOUND');
    const name = body.name ?? String(current.name);
    if (Object.entries(map).some(([id, l]) => id !== labelId && sameName(String(l.name), name)))
      throw new AppError('LABEL_EXISTS');
    const color = body.color ?? String(current.color);
    map[labelId] = { ...current, name, color };
    return { id: labelId, name, color };
  });
  return { label };
}

/** Deleting a label that is already gone is success (idempotent, like close and restore). */
export async function deleteLabel(
  userId: string,
  pid: string,
  labelId: string,
  action: ProjectAction = 'labels',
): Promise<{ deleted: string }> {
  await changeLabels(userId, pid, action, (map) => {
    delete map[labelId];
    return { id: labelId, name: '', color: '' };
  });
  return { deleted: labelId };
}
