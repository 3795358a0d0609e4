/**
 * The widget's intake (issue 7; docs/widget-api.md "The upload and report calls"): a visitor on the
 * project's own site asks for an upload form per file, uploads to S3, then files the report. Every refusal
 * is a catalogue code; the checks run in the order the docs give, cheapest first.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { hostMatches } from '#contracts/domains';
import { intakeRateLimits, projectDay, type UploadKind } from '#contracts/intake';
import type { ReportBody } from '#contracts/intake-schemas';
import { projectIdParam, type WidgetSettings } from '#contracts/schemas';
import { db } from '#runtime/aws/dynamo';
import { tableName, transactWrite } from '#runtime/db';
import { AppError } from '#runtime/errors';
import type { Logger } from '#runtime/log';
import { countWrite, rateLimitWrite, rateWindow, windowCount } from '#runtime/rate-limit';
import { getProject, type Project } from '../projects/project';
import { checkKeys, checkPlanFeature, checkTakesReports, fileIssue, presignFor } from './filing';
import { requireProof } from './proof';
import type { PresignedUpload } from './uploads';

/**
 * The visitor a call comes from, as the entry point reads it from the request (runtime/source.ts): the
 * address the per-visitor windows count, and its network (a /64 for IPv6) for the per-network ones.
 */
export interface Visitor {
  source: string;
  network: string;
}

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
 * The first step of admitting every intake call, before its body is read: the project exists and collects
 * data (else NOT_FOUND), and `origin` (the caller's Origin header) is the project's domain or one of its
 * subdomains, any origin with the wildcard setting (else FORBIDDEN_ORIGIN). Only then may the answer carry
 * CORS headers for it (the entry point's, functions/handlers/intake.ts); `takesReports` comes after.
 */
export async function projectForOrigin(
  projectId: string | undefined,
  origin: string | undefined,
): Promise<Project> {
  const id = projectIdParam.safeParse(projectId);
  if (!id.success) throw new AppError('NOT_FOUND');
  const project = await getProject(id.data);
  if (project?.active !== 1) throw new AppError('NOT_FOUND');
  const host = originHost(origin);
  if (!origin || !host || !hostMatches(host, project.host, project.data.widgetDomainWildcard)) {
    throw new AppError('FORBIDDEN_ORIGIN');
  }
  return project;
}

// The core's checks, where the widget's entry point and tests have always found them.
export { checkKeys, checkTakesReports };

/** Whether the project's widget settings switch a kind off (a replay is off until switched on). */
const kindSwitchedOff: Record<UploadKind, (s: WidgetSettings) => boolean> = {
  screenshot: (s) => s.widgetDisableScreenshot,
  snapshot: (s) => s.widgetDisableScreenshot,
  video: (s) => s.widgetDisableVideo,
  file: (s) => s.widgetDisableUpload,
  replay: (s) => !s.widgetReplay,
};

/**
 * Whether the project's effective plan and widget settings let visitors send this kind. The switches are
 * the widget's: they say what the project's visitors may send, not what its members may (issue 34).
 */
export function checkKindAllowed(project: Project, kind: UploadKind): void {
  checkPlanFeature(project, kind);
  if (kindSwitchedOff[kind](project.data)) throw new AppError('FEATURE_DISABLED');
}

/** POST website/{id}/upload: a presigned form for one object of the declared kind, type and size. */
export async function requestUpload(
  project: Project,
  visitor: Visitor,
  input: { kind: UploadKind; type: string; size: number },
): Promise<PresignedUpload> {
  const form = presignFor(project, input, (kind) => checkKindAllowed(project, kind));
  // Counted last, so a refused form counts nowhere; the bytes count whether the form is ever used or not.
  const { uploadPerVisitor: perVisitor, uploadPerNetwork: perNetwork } = intakeRateLimits;
  await transactWrite(
    [
      rateLimitWrite({
        ...perVisitor,
        key: `${project.id}#${visitor.source}`,
        budget: { amount: input.size, max: perVisitor.maxBytes },
      }),
      rateLimitWrite({
        ...perNetwork,
        key: `${project.id}#${visitor.network}`,
        budget: { amount: input.size, max: perNetwork.maxBytes },
      }),
    ],
    'RATE_LIMITED',
  );
  return form.presign();
}

/** The window that counts a project's stored reports of the day (tests fill it to reach the threshold). */
export const projectDayWindow = (projectId: string) =>
  rateWindow({ action: projectDay.action, key: projectId, windowMs: projectDay.windowMs });

/**
 * How far past the day's threshold a project is: null below it, else how many times the first proof's
 * work a proof must take now (1, 2, 4, … at most 2^maxDoublings). One eventually consistent read.
 */
async function proofScale(projectId: string): Promise<number | null> {
  const out = await db().send(
    new GetCommand({
      TableName: tableName(),
      Key: projectDayWindow(projectId).key,
      ProjectionExpression: '#c',
      ExpressionAttributeNames: { '#c': 'count' },
    }),
  );
  const stored = windowCount(out.Item);
  if (stored < projectDay.proofFrom) return null;
  return 2 ** Math.min(projectDay.maxDoublings, Math.floor(stored / projectDay.proofFrom) - 1);
}

/**
 * POST website/{id}/request: files a visitor's report. The visitor's gates come first (the proof of work of
 * a busy project, the visitor's and the network's windows), then the shared core (issues/filing.ts), with
 * the widget's switches, the project's daily count and, past its threshold, the held fan-out.
 */
export async function fileReport(
  project: Project,
  visitor: Visitor,
  body: ReportBody,
  log: Logger,
  /** Carried by issue.created to the fan-out and every delivery (functions/contracts/messages.ts). */
  correlationId: string,
): Promise<{ number: number }> {
  // Floods first, before any S3 work. A busy project asks for a proof of work (refused without one, counted
  // nowhere); the visitor's and the network's windows count together in one request, or not at all.
  const scale = await proofScale(project.id);
  if (scale !== null) await requireProof(project.id, scale, body.proof);
  const { reportPerVisitor, reportPerNetwork } = intakeRateLimits;
  await transactWrite(
    [
      rateLimitWrite({ ...reportPerVisitor, key: `${project.id}#${visitor.source}` }),
      rateLimitWrite({ ...reportPerNetwork, key: `${project.id}#${visitor.network}` }),
    ],
    'RATE_LIMITED',
  );
  return fileIssue(project, body, {
    checkKind: (kind) => checkKindAllowed(project, kind),
    // The project's day counts stored reports only, in the issue's own transaction: no refusal spends it.
    extra: () => [countWrite({ ...projectDay, key: project.id })],
    hold: scale !== null,
    log,
    correlationId,
  });
}
