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
 * The dashboard's own address for a picture or font a recording names (the server fetches it,
 * sanitize.ts): through the project, signed in, or through the signed link that opened the recording.
 * Absolute: the player's frame is about:blank.
 */
export const replayAssetUrl = (source: ReplaySource, origin: string) => (url: string) =>
  `${origin}/api${
    'token' in source
      ? endpointPath('issues.replayLinkAsset', { params: { token: source.token }, query: { url } })
      : endpointPath('issues.replayAsset', { params: { siteId: source.siteId }, query: { url } })
  }`;

/**
 * The recording's events, cleaned for a frame of this origin, its pictures and fonts through the proxy
 * (the project's for a signed-in reader, the link's for a public one). An API refusal throws an ApiError.
 */
export async function loadReplay(source: ReplaySource): Promise<Record<string, unknown>[]> {
  const bytes = await api.bytes(replayPath(source), 'application/gzip');
  const origin = window.location.origin;
  return sanitizeEvents(await eventsOfGzip(bytes), origin, replayAssetUrl(source, origin));
}
