/**
 * What a deliverer is given (deliver.ts `DeliveryContext`): the issue as the issues' reader reads it, its
 * links (screenshots, files, the replay's page) signed once, for as long as the deliverer declares (`linkLifetimeMs`: a GitHub issue keeps its
 * links a year, the others FILE_LINK_LIFETIME_MS), the stored objects read from S3 directly, and the
 * guarded client, both stopped when the record's time budget runs out.
 */
import type { Logger } from '#runtime/log';
import type { OutboundFetch } from '#runtime/outbound';
import { readStored } from '../issues/downloads';
import type { StoredIssue } from '../issues/issue';
import type { Project } from '../projects/project';
import type { DeliveryContext, DeliveryLink, DeliveryReplay } from './deliver';
import type { IntegrationRecord } from './integration';
import { FILE_LINK_LIFETIME_MS, fileLink, issueLink, replayLink } from './links';

const screenshotLabel = (i: number, type: string) => `screenshot-${i + 1}.${type}`;

export type DeliveryLinks = Pick<DeliveryContext, 'screenshots' | 'files' | 'replay'>;

/** The replay's page, signed for as long as the files' links. */
async function replayOf(
  projectId: string,
  replay: StoredIssue['replay'] | undefined,
  lifetimeMs: number,
): Promise<DeliveryReplay | null> {
  if (!replay) return null;
  const { url } = await replayLink(projectId, replay.name, lifetimeMs);
  return {
    url,
    start: replay.start,
    end: replay.end,
    ...(replay.stopped ? { stopped: replay.stopped } : {}),
  };
}

/** The issue's screenshots, files and replay as links that last `lifetimeMs`. */
export async function deliveryLinks(
  projectId: string,
  issue: Pick<StoredIssue, 'screenshots' | 'files'> & Partial<Pick<StoredIssue, 'replay'>>,
  lifetimeMs = FILE_LINK_LIFETIME_MS,
): Promise<DeliveryLinks> {
  const link = (k: 'screenshot' | 'file', n: string) => fileLink({ p: projectId, k, n }, lifetimeMs);
  const [screenshots, files, replay] = await Promise.all([
    Promise.all(
      issue.screenshots.map(
        async (s, i): Promise<DeliveryLink> => ({
          name: s.name,
          label: screenshotLabel(i, s.type),
          type: s.type,
          size: s.size,
          url: await link('screenshot', s.name),
        }),
      ),
    ),
    Promise.all(
      issue.files.map(
        async (f): Promise<DeliveryLink> => ({
          name: f.name,
          label: f.original_name,
          type: f.type,
          size: f.size,
          url: await link('file', f.name),
        }),
      ),
    ),
    replayOf(projectId, issue.replay, lifetimeMs),
  ]);
  return { screenshots, files, replay };
}

/** The parts of a context the delivery run knows before the budget starts. */
export interface ContextParts {
  issue: StoredIssue;
  project: Project;
  integration: IntegrationRecord;
  links: DeliveryLinks;
  log: Logger;
  http: OutboundFetch;
  vendorId?: string;
  recordVendorId: DeliveryContext['recordVendorId'];
  attempt: number;
  correlationId: string;
}

/** The context of one attempt; `signal` aborts with the record's time budget. */
export function deliveryContext(parts: ContextParts, signal: AbortSignal): DeliveryContext {
  const { issue, project, integration, http, vendorId } = parts;
  const { st: _st, reasons: _reasons, urls: _urls, ...shown } = issue;
  return {
    issue: shown,
    project,
    integration,
    issueUrl: issueLink(project.id, issue.number),
    ...parts.links,
    readObject: (name) =>
      readStored(project.id, issue.files.some((f) => f.name === name) ? 'file' : 'screenshot', name, signal),
    log: parts.log,
    http: (url, init = {}) =>
      http(url, { ...init, signal: init.signal ? AbortSignal.any([init.signal, signal]) : signal }),
    ...(vendorId ? { vendorId } : {}),
    recordVendorId: parts.recordVendorId,
    deliveryId: `${project.id}:${issue.number}:${integration.name}`,
    attempt: parts.attempt,
    correlationId: parts.correlationId,
    signal,
  };
}
