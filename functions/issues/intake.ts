/**
 * The widget's intake (issue 7; docs/widget-api.md "The upload and report calls"): a visitor on the
 * project's own site asks for an upload form per file, uploads to S3, then files the report. Every refusal
 * is a catalogue code; the checks run in the order the docs give, cheapest first.
 */
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { sqs } from '../core/aws/sqs';
import { queueUrl } from '../core/config';
import { transactWrite } from '../core/db';
import { AppError } from '../core/errors';
import type { Logger } from '../core/log';
import { type FanoutMessage, type IntegrationName, integrationNames } from '../core/messages';
import { countBusiness } from '../core/metrics';
import { rateLimit, rateLimitWrite } from '../core/rate-limit';
import { sourceOf } from '../core/source';
import { nowMs } from '../core/time';
import { getProject, ownerPlanOf, type Project, planOf, withinAllowance } from '../projects/projects';
import { hostMatches } from '../shared/domains';
import { extensionOf, intakeRateLimits, reportLimits, type UploadKind, uploadRules } from '../shared/intake';
import { plans } from '../shared/plans';
import { projectIdParam, type ReportBody } from '../shared/schemas';
import {
  allocateNumber,
  createIssue,
  type IssueFile,
  type IssueScreenshot,
  type NewIssue,
  quotaCondition,
} from './issues';
import {
  copyUpload,
  deleteObjects,
  finalKey,
  headUpload,
  type PresignedUpload,
  parseUploadKey,
  presignUpload,
  type StoredObject,
  type UploadKey,
} from './uploads';

/** CORS answer to an admitted preflight (docs/decisions.md "Widget intake"). */
export const preflightHeaders = {
  'access-control-allow-methods': 'POST',
  'access-control-allow-headers': 'content-type',
  'access-control-max-age': '600',
};

/** The host of an `Origin` header, or null when it is absent, `null` or not an http(s) origin. */
function originHost(origin: string | undefined): string | null {
  if (!origin) return null;
  try {
    const url = new URL(origin);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    return url.hostname.replace(/^\[|\]$/g, '');
  } catch {
    return null;
  }
}

/**
 * Admission of every intake call, before its body is read: the project exists and collects data (else
 * NOT_FOUND), and the caller's Origin is the project's domain or one of its subdomains, any origin with
 * the wildcard setting (else FORBIDDEN_ORIGIN). Only then may the answer carry CORS headers for it.
 */
export async function admit(request: {
  event: APIGatewayProxyEventV2;
  params: Record<string, string>;
  headers: Record<string, string>;
}): Promise<Project> {
  request.headers.vary = 'Origin';
  const id = projectIdParam.safeParse(request.params.id);
  if (!id.success) throw new AppError('NOT_FOUND');
  const project = await getProject(id.data);
  if (project?.active !== 1) throw new AppError('NOT_FOUND');
  const origin = request.event.headers.origin;
  const host = originHost(origin);
  if (!origin || !host || !hostMatches(host, project.host, project.data.widgetDomainWildcard)) {
    throw new AppError('FORBIDDEN_ORIGIN');
  }
  request.headers['access-control-allow-origin'] = origin;
  // A project beyond its owner's effective allowance (a lapsed plan) takes no reports; nothing is deleted (D26).
  if (!withinAllowance(project)) throw new AppError('PLAN_LIMIT');
  return project;
}

/** Whether the project's effective plan and widget settings let visitors send this kind. */
export function checkKindAllowed(project: Project, kind: UploadKind): void {
  const plan = plans[planOf(ownerPlanOf(project))];
  if (kind === 'file' && !plan.attachments) throw new AppError('PLAN_LIMIT');
  if (kind === 'video' && !plan.videos) throw new AppError('PLAN_LIMIT');
  const s = project.data;
  const off =
    kind === 'file'
      ? s.widgetDisableUpload
      : kind === 'video'
        ? s.widgetDisableVideo
        : s.widgetDisableScreenshot;
  if (off) throw new AppError('FEATURE_DISABLED');
}

/** POST website/{id}/upload: a presigned form for one object of the declared kind, type and size. */
export async function requestUpload(
  project: Project,
  event: APIGatewayProxyEventV2,
  input: { kind: UploadKind; type: string; size: number },
): Promise<PresignedUpload> {
  const { action, ...limit } = intakeRateLimits.uploadPerVisitor;
  await rateLimit({ action, key: `${project.id}#${sourceOf(event)}`, ...limit });
  checkKindAllowed(project, input.kind);
  const rule = uploadRules[input.kind];
  if (input.size > rule.maxBytes) throw new AppError('FILE_TOO_LARGE');
  if (!rule.types.includes(input.type) || !extensionOf[input.type])
    throw new AppError('FILE_TYPE_NOT_ALLOWED');
  return presignUpload(project.id, input.kind, input.type, input.size);
}

/** One key a report uses, with the kind its place demands. */
interface KeyUse {
  key: string;
  kind: UploadKind;
  /** For screenshot entries of type webm/mp4: the extension the key must have. */
  ext?: string;
}

/** The keys a report names, each checked against this project, its place, and the others. */
export function checkKeys(projectId: string, uses: KeyUse[]): UploadKey[] {
  const seen = new Set<string>();
  return uses.map((use) => {
    const parsed = parseUploadKey(use.key);
    if (
      !parsed ||
      parsed.projectId !== projectId ||
      parsed.kind !== use.kind ||
      (use.ext !== undefined && parsed.ext !== use.ext) ||
      seen.has(parsed.id)
    ) {
      throw new AppError('INVALID_UPLOAD');
    }
    seen.add(parsed.id);
    return parsed;
  });
}

function keyUses(body: ReportBody): KeyUse[] {
  const uses: KeyUse[] = [];
  for (const s of body.screenshots) {
    uses.push(
      s.type === 'png' ? { key: s.key, kind: 'screenshot' } : { key: s.key, kind: 'video', ext: s.type },
    );
    if (s.snapshotKey) uses.push({ key: s.snapshotKey, kind: 'snapshot' });
  }
  for (const f of body.files) uses.push({ key: f.key, kind: 'file' });
  return uses;
}

/** The object behind a key exists with a size and type its kind allows, matching the key's extension. */
function checkStored(upload: UploadKey, stored: StoredObject | null): StoredObject {
  const rule = uploadRules[upload.kind];
  if (
    !stored ||
    stored.size < 1 ||
    stored.size > rule.maxBytes ||
    !rule.types.includes(stored.type) ||
    extensionOf[stored.type] !== upload.ext
  ) {
    throw new AppError('INVALID_UPLOAD');
  }
  return stored;
}

const firstLine = (text: string) => (text.split(/\r?\n/).find((l) => l.trim() !== '') ?? text).trim();

/**
 * Statuses at creation (4.6, 4.8): 0 (new) for every integration, so each one also gets its sync marker.
 * The fan-out sets 1 when it queues a delivery; if `issue.created` never reaches it, the issue stays in
 * the sync list's new tickets, where the client's Sync sends it (docs/decisions.md "Widget intake").
 */
const initialStatuses = () =>
  Object.fromEntries(integrationNames.map((name) => [name, 0])) as Record<IntegrationName, number>;

/**
 * POST website/{id}/request: files the report. On any failure nothing is left behind: no issue, no
 * counted bytes, no copied objects (the number may stay a gap).
 */
export async function fileReport(
  project: Project,
  event: APIGatewayProxyEventV2,
  body: ReportBody,
  log: Logger,
  /** Carried by issue.created to the fan-out and every delivery (functions/core/messages.ts). */
  correlationId: string,
): Promise<{ number: number }> {
  // Floods first: both windows counted in one request, before any S3 work.
  const perVisitor = intakeRateLimits.reportPerVisitor;
  const perProject = intakeRateLimits.reportPerProject;
  await transactWrite(
    [
      rateLimitWrite({ ...perVisitor, key: `${project.id}#${sourceOf(event)}` }),
      rateLimitWrite({ ...perProject, key: project.id }),
    ],
    'RATE_LIMITED',
  );

  const videos = body.screenshots.filter((s) => s.type !== 'png').length;
  if (body.screenshots.length - videos > reportLimits.screenshotsMax || videos > reportLimits.videosMax) {
    throw new AppError('INVALID_PARAMETERS');
  }
  const uses = keyUses(body);
  const uploads = checkKeys(project.id, uses);
  for (const kind of new Set(uploads.map((u) => u.kind))) checkKindAllowed(project, kind);

  const stored = await Promise.all(uploads.map(async (u) => checkStored(u, await headUpload(u.key))));
  const bytes = stored.reduce((sum, o) => sum + o.size, 0);
  const planName = planOf(ownerPlanOf(project));
  const quota = plans[planName].storageBytes;
  // A report larger than the whole quota is refused before anything is copied; the rest is the transaction's.
  if (quotaCondition(quota, bytes) === 'exceeded') throw new AppError('QUOTA_EXCEEDED');

  // The number and the copies are independent: take both at once, and undo the copies on any failure.
  const targets = uploads.map((u) => finalKey(project.id, u.kind, u.ext));
  const copied: string[] = [];
  const originalNames = new Map(body.files.map((f) => [f.key, f.original_name]));
  const copies = uploads.map(async (u, i) => {
    const target = targets[i]!;
    await copyUpload(u.key, target.key, stored[i]!.type, originalNames.get(u.key));
    copied.push(target.key);
  });
  const undo = async (err: unknown): Promise<never> => {
    await deleteObjects(copied).catch((e) => log.error('could not remove copies of a failed report', { e }));
    throw err;
  };
  const [numberResult, ...copyResults] = await Promise.allSettled([allocateNumber(project.id), ...copies]);
  const failed = [numberResult, ...copyResults].find((r) => r.status === 'rejected');
  if (failed) return undo((failed as PromiseRejectedResult).reason);
  const n = (numberResult as PromiseFulfilledResult<number>).value;

  const nameOf = new Map(
    uploads.map((u, i) => [u.key, { name: targets[i]!.name, size: stored[i]!.size, type: stored[i]!.type }]),
  );
  const screenshots: IssueScreenshot[] = body.screenshots.map((s) => {
    const own = nameOf.get(s.key)!;
    const snapshot = s.snapshotKey ? nameOf.get(s.snapshotKey) : undefined;
    return { name: own.name, type: s.type, html: snapshot?.name ?? '', size: own.size };
  });
  const files: IssueFile[] = body.files.map((f) => {
    const own = nameOf.get(f.key)!;
    return { name: own.name, original_name: f.original_name, size: own.size, type: own.type };
  });
  const issue: NewIssue = {
    projectId: project.id,
    ownerId: project.ownerId,
    number: n,
    createdAt: new Date(nowMs()).toISOString(),
    title: (body.title || firstLine(body.msg)).slice(0, reportLimits.titleMax),
    msg: body.msg,
    data: {
      username: body.username,
      href: body.href,
      browser: body.browser,
      browserVersion: body.browserVersion,
      os: body.os,
      osVersion: body.osVersion,
      deviceType: body.deviceType,
      screenResolution: body.screenResolution,
      customFields: body.customFields,
    },
    files,
    screenshots,
    logs: body.logs,
    st: initialStatuses(),
    bytes,
    uploadIds: uploads.map((u) => u.id),
  };
  try {
    await createIssue(issue, quota);
  } catch (err) {
    return undo(err);
  }

  // The issue is stored: what follows must not turn it into an error the visitor would retry.
  await deleteObjects(uploads.map((u) => u.key)).catch((e) =>
    log.warn('pending uploads left to expire', { e }),
  );
  countBusiness('reportFiled');
  log.info('report filed', { projectId: project.id, number: n });
  const message: FanoutMessage = {
    type: 'issue.created',
    projectId: project.id,
    issueNumber: n,
    correlationId,
  };
  await sqs()
    .send(
      new SendMessageCommand({
        QueueUrl: queueUrl('fanout'),
        MessageBody: JSON.stringify(message),
      }),
    )
    // The SDK has already retried transient failures (3 attempts with backoff). What still fails leaves the
    // issue at status 0 with its markers: the integrations' sync lists show it as new, and Sync sends it.
    .catch((e) => log.error('issue.created not sent', { projectId: project.id, number: n, e }));
  return { number: n };
}
