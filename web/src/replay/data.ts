/**
 * The session replay's one call (docs/replay.md): the recording's bytes, a gzip of rrweb's JSON array of
 * events, read signed in (`GET client/replay/{siteId}/{name}`, project access) or from a tracker's signed
 * link (`GET replay/{token}`, public). Both answer the bytes themselves, from the dashboard's own origin.
 * The events come back cleaned for the player's frame (sanitize.ts).
 */
import { api } from '../api';
import { endpointPath } from '../api/endpoints';
import { sanitizeEvents } from './sanitize';

/** Which recording: an issue's (signed in) or a signed link's. */
export type ReplaySource = { siteId: string; name: string } | { token: string };

export const replayPath = (source: ReplaySource) =>
  'token' in source
    ? endpointPath('issues.replayLink', { params: { token: source.token } })
    : endpointPath('issues.replay', { params: source });

/** The events of a gzip of a JSON array; throws on bytes that are not one. */
export async function eventsOfGzip(bytes: ArrayBuffer): Promise<unknown> {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
  return JSON.parse(await new Response(stream).text()) as unknown;
}

/**
 * The dashboard's own address for a picture or font a project's recording names (the server fetches it,
 * sanitize.ts). Absolute: the player's frame is about:blank.
 */
export const replayAssetUrl = (siteId: string, origin: string) => (url: string) =>
  `${origin}/api${endpointPath('issues.replayAsset', { params: { siteId }, query: { url } })}`;

/**
 * The recording's events, cleaned for a frame of this origin. An issue's pictures and fonts come through
 * the proxy; a signed link's reader has no session for it, so theirs stay blocked by the policy.
 * An API refusal throws an ApiError.
 */
export async function loadReplay(source: ReplaySource): Promise<Record<string, unknown>[]> {
  const bytes = await api.bytes(replayPath(source), 'application/gzip');
  const origin = window.location.origin;
  const asset = 'token' in source ? undefined : replayAssetUrl(source.siteId, origin);
  return sanitizeEvents(await eventsOfGzip(bytes), origin, asset);
}
