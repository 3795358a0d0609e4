/**
 * The widget's intake contract (issue 7; DESIGN.md section 8 "widget upload" and "widget report"): what a
 * visitor may upload, how large, how many per report. One place, read by the API (schemas.ts, the
 * presigned policy, the report checks) and by the widget (which imports these plain constants, never zod,
 * to stay within its size budget).
 */

export const uploadKinds = ['screenshot', 'video', 'snapshot', 'file', 'replay'] as const;
export type UploadKind = (typeof uploadKinds)[number];

const MB = 1024 * 1024;

/** File types a visitor may attach (kind `file`). No HTML, SVG or scripts: they could run if ever opened inline. */
const attachmentTypes = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'application/pdf',
  'text/plain',
  'text/csv',
  'application/json',
  'application/zip',
  'application/msword',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.ms-excel',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.ms-powerpoint',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'application/vnd.oasis.opendocument.text',
  'application/vnd.oasis.opendocument.spreadsheet',
  'video/mp4',
  'video/webm',
  'video/quicktime',
  'audio/mpeg',
  'audio/wav',
] as const;

/** Size cap (bytes) and MIME allow-list per kind; the presigned POST policy binds both. */
export const uploadRules: Record<UploadKind, { maxBytes: number; types: readonly string[] }> = {
  screenshot: { maxBytes: 10 * MB, types: ['image/png', 'image/jpeg', 'image/webp'] },
  snapshot: { maxBytes: 5 * MB, types: ['text/html'] },
  video: { maxBytes: 100 * MB, types: ['video/webm', 'video/mp4'] },
  file: { maxBytes: 25 * MB, types: attachmentTypes },
  /** The session replay: a gzip of the rrweb events' JSON array (replayLimits), compressed in the browser. */
  replay: { maxBytes: 1 * MB, types: ['application/gzip'] },
};

/** The extension a stored object gets, from its validated MIME type (never from a visitor's file name). */
export const extensionOf: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'application/pdf': 'pdf',
  'text/plain': 'txt',
  'text/csv': 'csv',
  'text/html': 'html',
  'application/json': 'json',
  'application/zip': 'zip',
  'application/msword': 'doc',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.ms-excel': 'xls',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'application/vnd.ms-powerpoint': 'ppt',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'pptx',
  'application/vnd.oasis.opendocument.text': 'odt',
  'application/vnd.oasis.opendocument.spreadsheet': 'ods',
  'video/mp4': 'mp4',
  'video/webm': 'webm',
  'video/quicktime': 'mov',
  'audio/mpeg': 'mp3',
  'audio/wav': 'wav',
  'application/gzip': 'gz',
};

/** Per-report limits (SPEC.md section 3 fields; decisions D18 and issue 7). */
export const reportLimits = {
  descriptionMax: 2000,
  titleMax: 200,
  emailMax: 100,
  hrefMax: 2000,
  /** Annotated screenshots per report. */
  screenshotsMax: 5,
  /** Screen videos per report. */
  videosMax: 1,
  /** Attachments per report. */
  filesMax: 10,
  originalNameMax: 255,
  customFieldValueMax: 500,
  /** Console entries, uncaught errors and failed requests kept by the loader. */
  logsMax: 50,
  logMessageMax: 1000,
  /** Longest screen video, in milliseconds. */
  videoMaxMs: 2 * 60 * 1000,
  /** The visitor's last actions a report carries (steps to reproduce). */
  stepsMax: 50,
  /** A step's label: the target's accessible name, text or short selector, or the address navigated to. */
  stepLabelMax: 200,
} as const;

/**
 * The session replay the widget records (docs/replay.md): rrweb events in memory only, the last `windowMs`
 * kept (a full snapshot every `checkoutMs`, the last two kept), at most `maxGzipBytes` once compressed
 * (oldest events dropped first). Recording stops on a page whose DOM changes more than `mutationsMax`
 * nodes within `mutationWindowMs`: the report then says so (`stopped: 'mutations'`) instead of the
 * recorder freezing the page.
 */
export const replayLimits = {
  windowMs: 60_000,
  checkoutMs: 30_000,
  maxGzipBytes: 1 * MB,
  mutationsMax: 10_000,
  mutationWindowMs: 1_000,
} as const;

/**
 * What a step records (never a field's value): a click, a form field focused or changed, a form
 * submitted, a navigation (`load` a full page load, `navigate` the page's own pushState/replaceState,
 * `history` back or forward), and the moment the visitor opened the widget.
 */
export const stepKinds = [
  'click',
  'focus',
  'change',
  'submit',
  'load',
  'navigate',
  'history',
  'open',
] as const;
export type StepKind = (typeof stepKinds)[number];

/** One step to reproduce, as the widget sends it and the issue stores it. */
export interface Step {
  /** When it happened, epoch ms (the report's time is the issue's; the timeline shows the difference). */
  t: number;
  kind: StepKind;
  /** For a navigation the address (no query or fragment); otherwise a readable name of the target. */
  label: string;
}

/**
 * The role words the widget writes before a target's name (widget/src/activity/steps.ts `describe`,
 * `button "Pay"`). The stored label keeps them in English, as the report contract has it; the dashboard
 * (`replay.roles`) and the deliveries (functions/integrations/steps.ts) show them in their own language. A tag name the widget writes for other elements
 * (`div "…"`) is markup, not English, and stays as it is.
 */
export const stepRoles = [
  'link',
  'button',
  'field',
  'list',
  'label',
  'summary',
  'form',
  'menuitem',
  'tab',
  'checkbox',
  'option',
] as const;
export type StepRole = (typeof stepRoles)[number];

/** Steps whose label names a thing on the page; the others name an address, or nothing. */
const targetKinds: ReadonlySet<Step['kind']> = new Set(['click', 'focus', 'change', 'submit']);

/** A step's target as role and name (`button "Pay"` → button, Pay), or null for any other label. */
export function stepTarget(step: Pick<Step, 'kind' | 'label'>): { role: StepRole; name: string } | null {
  if (!targetKinds.has(step.kind)) return null;
  const match = /^([a-z]+) "([\s\S]*)"$/.exec(step.label);
  const role = match?.[1] as StepRole | undefined;
  return role && stepRoles.includes(role) ? { role, name: match![2]! } : null;
}

/** Why a replay ends early: the page changed more than the recorder's limit (replayLimits). */
export const replayStops = ['mutations'] as const;
export type ReplayStop = (typeof replayStops)[number];

/**
 * Flood limits of the intake calls (docs/decisions.md "Intake floods", issue 19), fixed windows counted in
 * the table (runtime/rate-limit.ts). A visitor is an IPv4 address or an IPv6 /56, its network the IPv4 /24 or
 * IPv6 /48 around it (runtime/source.ts), as CloudFront saw them. Only these windows refuse (429): what a
 * project receives in all is never closed, it degrades (`projectDay`).
 */
export const intakeRateLimits = {
  /** Reports per visitor and project: a person files a few, a script many. Counts attempts that pass the schema. */
  reportPerVisitor: { action: 'report-ip', max: 10, windowMs: 10 * 60_000 },
  /** Reports per network and project: one site's allocation is not 256 (or 65,536) visitors. */
  reportPerNetwork: { action: 'report-net', max: 30, windowMs: 10 * 60_000 },
  /**
   * Upload forms per visitor and project, and the bytes they may carry, used or not: an unused form's object
   * is stored for a day (bucket lifecycle) and counts against no quota, so its bytes count here. A full
   * report uses at most 22 forms; the largest possible one (5 screenshots and snapshots, a video, 10
   * files and a replay) is 426 MB.
   */
  uploadPerVisitor: { action: 'upload-ip', max: 60, windowMs: 3_600_000, maxBytes: 500 * MB },
  /** The same per network: 4 visitors' worth. */
  uploadPerNetwork: { action: 'upload-net', max: 240, windowMs: 3_600_000, maxBytes: 2048 * MB },
} as const;

/**
 * What a project receives in a UTC day degrades instead of closing (issue 19). Only stored reports count.
 * From `proofFrom` on, a report must carry a proof of work (the answer `PROOF_REQUIRED` brings the
 * challenge; the widget solves it) whose work doubles with every further `proofFrom` (at most
 * 2^`maxDoublings` times the first), and it is stored without being sent to the integrations: the
 * dashboard and the integrations' sync lists show it, the client's Sync sends it.
 */
export const projectDay = {
  action: 'report-project',
  windowMs: 24 * 3_600_000,
  proofFrom: 500,
  maxDoublings: 3,
} as const;

/** How long a presigned upload form stays usable, in seconds. */
export const uploadFormSeconds = 10 * 60;

/** Screenshot entry types of an issue (SPEC.md section 3: png/webm/mp4). */
export const screenshotTypes = ['png', 'webm', 'mp4'] as const;
export type ScreenshotType = (typeof screenshotTypes)[number];

/** Device types (SPEC.md section 3); Desktop is the default. */
export const deviceTypes = ['Desktop', 'Mobile', 'Tablet'] as const;
export type DeviceType = (typeof deviceTypes)[number];

/** One console/error/network entry the loader buffered on the customer's page. */
export interface LogEntry {
  /** When it happened, epoch ms. */
  t: number;
  level: 'error' | 'warn';
  kind: 'console' | 'exception' | 'rejection' | 'network';
  /** The text; for `network`, `METHOD URL-without-query STATUS` (status 0: the request failed). */
  msg: string;
}

/** Device data the widget collects (SPEC.md section 3 `data` fields). */
export interface DeviceData {
  browser: string;
  browserVersion: string;
  os: string;
  osVersion: string;
  deviceType: DeviceType;
  /** `<width>x<height>` of the screen in CSS pixels. */
  screenResolution: string;
}
