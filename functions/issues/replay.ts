/**
 * Reading an issue's session replay (docs/replay.md "Storage and access"): the stored recording (a gzip
 * of rrweb's JSON array of events, `p/<pid>/s/<uuid>.gz`) answered as its own bytes, so the dashboard
 * reads it from its own origin (no CORS, no CSP change) and unpacks it itself. Two ways in: a signed-in
 * client with the project's `read` (the policy's check, as the downloads), or a tracker's signed link
 * (replay-link.ts), public. Anything that does not name a stored recording of that project is the same
 * NOT_FOUND, whatever the reason.
 */
import type { ProjectAction } from '#contracts/access';
import { AppError } from '#runtime/errors';
import { type RateLimit, rateLimit } from '#runtime/rate-limit';
import { projectFor } from '../projects/access';
import { readStored } from './downloads';
import { readReplayLinkToken } from './replay-link';

/** A recording's stored name: the intake's own uuid and the `replay` kind's extension, nothing else. */
export const replayNamePattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.gz$/;

/**
 * The public link's flood limit per source: the reporter's status page's figure (a person opens a link a
 * few times; a script walking tokens is stopped), counted before the token is looked at, so a forged or
 * malformed token costs a use as much as a good one.
 */
export const replayLinkRateLimit = { action: 'replay-src', max: 120, windowMs: 60 * 60_000 } as const;

/** The stored bytes of a project's recording; NOT_FOUND when there is none under that name. */
export async function readReplay(projectId: string, name: string): Promise<Uint8Array> {
  if (!replayNamePattern.test(name)) throw new AppError('NOT_FOUND');
  try {
    return await readStored(projectId, 'replay', name);
  } catch (err) {
    const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
    if (status === 404 || status === 403 || (err as { name?: string }).name === 'NoSuchKey')
      throw new AppError('NOT_FOUND');
    throw err;
  }
}

/** GET client/replay/{siteId}/{name}: the recording, for a caller the policy lets `action` the project. */
export async function replayOfProject(
  userId: string,
  projectId: string,
  name: string,
  action: ProjectAction = 'read',
): Promise<Uint8Array> {
  if (!replayNamePattern.test(name)) throw new AppError('NOT_FOUND');
  await projectFor(userId, projectId, action);
  return readReplay(projectId, name);
}

/**
 * GET replay/{token}: the recording a signed link opens. The caller's source counts first
 * (`replayLinkRateLimit`); a malformed, forged or expired token is NOT_FOUND, with no hint which.
 */
export async function replayOfLink(token: string, source: string): Promise<Uint8Array> {
  const limit: RateLimit = { ...replayLinkRateLimit, key: source };
  await rateLimit(limit);
  const ref = await readReplayLinkToken(token);
  if (!ref) throw new AppError('NOT_FOUND');
  return readReplay(ref.projectId, ref.name);
}
