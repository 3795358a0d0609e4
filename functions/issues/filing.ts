/**
 * Filing an issue from uploaded objects: the one core of the widget's intake (issues/intake.ts, a visitor
 * on the project's site) and of the public API's create (issues/api-filing.ts, a script or the browser
 * extension, issue 34). Keys, stored-object checks, plan features, quota, the copies and their undo, the
 * number, the issue's transaction and the `issue.created` fan-out happen here, once; what only concerns
 * visitors (proof of work, the visitor and network windows, the project's daily count and the held
 * fan-out past it, the widget's on/off switches) stays with the caller, passed in as `FilingRules`.
 */
import { extensionOf, reportLimits, type UploadKind, uploadRules } from '#contracts/intake';
import type { ReportBody } from '#contracts/intake-schemas';
import { type FanoutMessage, type IntegrationName, integrationNames } from '#contracts/messages';
import { plans } from '#contracts/plans';
import { strictReport } from '#contracts/strict-privacy';
import type { Actor, FiledVia } from '#contracts/triage';
import { getItems, type TransactItems } from '#runtime/db';
import { AppError } from '#runtime/errors';
import type { Logger } from '#runtime/log';
import { countBusiness } from '#runtime/metrics';
import { publish } from '#runtime/publish';
import { nowMs } from '#runtime/time';
import { type Project, planOfProject, withinAllowance } from '../projects/project';
import { teamOf } from '../teams/member';
import { migrateAccount } from '../teams/migrate';
import { teamKey } from '../teams/team';
import { createIssue } from './create';
import {
  allocateIssue,
  type IssueFile,
  type IssueReplay,
  type IssueScreenshot,
  type NewIssue,
  quotaCondition,
} from './issue';
import { redactReport, replayLeaksInGzip } from './redact-report';
import { reporterPuts } from './reporter';
import {
  copyUpload,
  deleteObjects,
  finalKey,
  headUpload,
  type PresignedUpload,
  parseUploadKey,
  presignUpload,
  readUpload,
  type StoredObject,
  type UploadKey,
} from './uploads';

/** What a filed report carries: the widget's report body, without the visitor's proof of work. */
export type IssueReport = Omit<ReportBody, 'proof'>;

/** A project beyond its owner's effective allowance (a lapsed plan) takes no reports; nothing is deleted (D26). */
export function checkTakesReports(project: Project): void {
  if (!withinAllowance(project)) throw new AppError('PLAN_LIMIT');
}

/** The plan feature a kind needs, where it needs one (screenshots and snapshots: every plan). */
const kindPlanFeature: Partial<Record<UploadKind, 'attachments' | 'videos' | 'replays'>> = {
  file: 'attachments',
  video: 'videos',
  replay: 'replays',
};

/** Whether the project's effective plan lets anyone send this kind (PLAN_LIMIT otherwise). */
export function checkPlanFeature(project: Project, kind: UploadKind): void {
  const feature = kindPlanFeature[kind];
  if (feature && !plans[planOfProject(project)][feature]) throw new AppError('PLAN_LIMIT');
}

/**
 * A presigned form for one object of `input`'s kind, type and size, after `checkKind` (the plan's features,
 * and for visitors the widget's switches): the same sizes and types for every caller.
 */
export function presignFor(
  project: Project,
  input: { kind: UploadKind; type: string; size: number },
  checkKind: (kind: UploadKind) => void,
): { presign: () => Promise<PresignedUpload> } {
  checkKind(input.kind);
  const rule = uploadRules[input.kind];
  if (input.size > rule.maxBytes) throw new AppError('FILE_TOO_LARGE');
  if (!rule.types.includes(input.type) || !extensionOf[input.type])
    throw new AppError('FILE_TYPE_NOT_ALLOWED');
  // The caller may count the request (a visitor's windows) before the form is signed.
  return { presign: () => presignUpload(project.id, input.kind, input.type, input.size) };
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

function keyUses(body: IssueReport): KeyUse[] {
  const uses: KeyUse[] = [];
  for (const s of body.screenshots) {
    uses.push(
      s.type === 'png' ? { key: s.key, kind: 'screenshot' } : { key: s.key, kind: 'video', ext: s.type },
    );
    if (s.snapshotKey) uses.push({ key: s.snapshotKey, kind: 'snapshot' });
  }
  for (const f of body.files) uses.push({ key: f.key, kind: 'file' });
  if (body.replay) uses.push({ key: body.replay.key, kind: 'replay' });
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

/** What the caller of `fileIssue` decides: the rules that differ between a visitor and a member or script. */
export interface FilingRules {
  /** Refuses a kind the caller may not send: the plan's features always, the widget's switches for visitors. */
  checkKind: (kind: UploadKind) => void;
  /** Writes that must happen with the issue or not at all (the visitor's daily count, an idempotency record). */
  extra?: (n: number) => TransactItems;
  /** Keep `issue.created` from the integrations (a visitor's report past the project's daily threshold). */
  hold?: boolean;
  /** Who filed it (its `created` activity); the widget's unnamed reporter when absent. */
  actor?: Actor;
  filedVia?: FiledVia;
  log: Logger;
  /** Carried by issue.created to the fan-out and every delivery (functions/contracts/messages.ts). */
  correlationId: string;
}

/**
 * Why an accepted recording must not be stored (an unmasked input value; in a strict project unmasked
 * text too; an unreadable pack), or null.
 */
async function recordingLeak(key: string, strict: boolean): Promise<string | null> {
  const bytes = await readUpload(key);
  return bytes ? replayLeaksInGzip(bytes, undefined, { maskedText: strict }) : 'the recording is gone';
}

/**
 * Files `body` into `project`. On any failure nothing is left behind: no issue, no counted bytes, no
 * copied objects (the number may stay a gap).
 */
export async function fileIssue(
  project: Project,
  sent: IssueReport,
  rules: FilingRules,
): Promise<{ number: number }> {
  const { log } = rules;
  const videos = sent.screenshots.filter((s) => s.type !== 'png').length;
  if (sent.screenshots.length - videos > reportLimits.screenshotsMax || videos > reportLimits.videosMax) {
    throw new AppError('INVALID_PARAMETERS');
  }
  const checked = checkKeys(project.id, keyUses(sent));
  for (const kind of new Set(checked.map((u) => u.kind))) rules.checkKind(kind);
  const found = await Promise.all(checked.map(async (u) => checkStored(u, await headUpload(u.key))));

  // The server's own redaction (docs/privacy.md), whatever the sender did: secrets in the gathered text
  // are masked, and a recording that carries what someone typed (in a strict project: any unmasked text)
  // is not stored (the report is, without it).
  const leak = sent.replay ? await recordingLeak(sent.replay.key, project.data.strictPrivacy === true) : null;
  const redacted = redactReport(leak ? { ...sent, replay: undefined } : sent);
  // A strict project (docs/privacy.md "Strict privacy mode") keeps no query, no fragment, no further log
  // lines and no visitor email, whatever the widget or script sent.
  const body: IssueReport = project.data.strictPrivacy ? strictReport(redacted) : redacted;
  const kept = checked.flatMap((u, i) => (leak && u.kind === 'replay' ? [] : [{ u, o: found[i]! }]));
  const uploads = kept.map((k) => k.u);
  const stored = kept.map((k) => k.o);
  if (leak) {
    log.warn('recording not stored: it carries an input value', { projectId: project.id, reason: leak });
    countBusiness('replayRefused');
    await deleteObjects([sent.replay!.key]).catch(() => undefined);
  }
  const bytes = stored.reduce((sum, o) => sum + o.size, 0);
  const quota = plans[planOfProject(project)].storageBytes;
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
  const [numberResult, ...copyResults] = await Promise.allSettled([allocateIssue(project.id), ...copies]);
  const failed = [numberResult, ...copyResults].find((r) => r.status === 'rejected');
  if (failed) return undo((failed as PromiseRejectedResult).reason);
  const { number: n, u } = (numberResult as PromiseFulfilledResult<{ number: number; u: number }>).value;

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
  // The recording as the issue keeps it: its stored name and size, and what it covers as the widget said.
  const recorded = body.replay && { ...body.replay, ...nameOf.get(body.replay.key)! };
  const replay: IssueReplay | null = recorded
    ? {
        name: recorded.name,
        size: recorded.size,
        start: recorded.start,
        end: recorded.end,
        ...(recorded.stopped ? { stopped: recorded.stopped } : {}),
      }
    : null;
  const issue: NewIssue = {
    projectId: project.id,
    teamId: teamOf(project),
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
    steps: body.steps,
    replay,
    ...(body.sentAt !== undefined ? { sentAt: body.sentAt } : {}),
    st: initialStatuses(),
    bytes,
    uploadIds: uploads.map((up) => up.id),
    u,
    ...(rules.actor ? { actor: rules.actor } : {}),
    ...(rules.filedVia ? { filedVia: rules.filedVia } : {}),
  };
  try {
    // A reporter who left an address is owed a confirmation (issue 24): written with the issue, sent by
    // the next flush of the reporter's outbox, so the report waits for no mail.
    const owed =
      body.username && project.data.reporterUpdates
        ? reporterPuts(project.id, n, body.username, body.language)
        : [];
    await storeIssue(issue, quota, [...(rules.extra?.(n) ?? []), ...owed]);
  } catch (err) {
    return undo(err);
  }

  // The issue is stored: what follows must not turn it into an error the caller would retry.
  await deleteObjects(uploads.map((u) => u.key)).catch((e) =>
    log.warn('pending uploads left to expire', { e }),
  );
  countBusiness('reportFiled');
  log.info('report filed', { projectId: project.id, number: n, via: rules.filedVia?.kind ?? 'widget' });
  const message: FanoutMessage = {
    type: 'issue.created',
    projectId: project.id,
    issueNumber: n,
    correlationId: rules.correlationId,
  };
  // Similar reports are computed by their own consumer after the intake (docs/similar.md), for held
  // reports too: a flood of reports about one broken page is exactly when the suggestions help. Sent
  // alongside the fan-out, so the report waits for one more SendMessage at the same time, not for the work.
  const similar = publish('similar', [{ message }]).catch((e) =>
    // What still fails leaves the issue without suggestions (`ready: false`); nothing else depends on it.
    log.error('similar reports not requested', { projectId: project.id, number: n, e }),
  );
  if (rules.hold) {
    // Past the day's threshold the integrations are spared a flood: the issue keeps status 0 and its sync
    // markers, so the dashboard and each integration's sync list show it, and the client's Sync sends it.
    countBusiness('reportHeld');
    log.warn('report held from the integrations: the project is past its daily threshold', {
      projectId: project.id,
      number: n,
    });
    await similar;
    return { number: n };
  }
  await Promise.all([
    publish('fanout', [{ message }])
      // The SDK has already retried transient failures (3 attempts with backoff). What still fails leaves the
      // issue at status 0 with its markers: the integrations' sync lists show it as new, and Sync sends it.
      .catch((e) => log.error('issue.created not sent', { projectId: project.id, number: n, e })),
    similar,
  ]);
  return { number: n };
}

/**
 * Writes the issue with its files' bytes counted on `TEAM#teamOf(META)` (issue 22). A refused quota on a
 * team that does not exist is a pre-team project's first report with files: its owner's personal team is
 * made (migration step 1, which copies the account's stored bytes) and the report is tried once more.
 */
async function storeIssue(issue: NewIssue, quota: number | null, extra: Parameters<typeof createIssue>[2]) {
  try {
    await createIssue(issue, quota, extra);
  } catch (err) {
    if (!(err instanceof AppError && err.code === 'QUOTA_EXCEEDED') || issue.bytes === 0) throw err;
    const [team] = await getItems([teamKey(issue.teamId)]);
    if (team || (await migrateAccount(issue.teamId)) === 'gone') throw err;
    await createIssue(issue, quota, extra);
  }
}
