/**
 * The widget's intake contract (issue 7; DESIGN.md section 8 "widget upload" and "widget report"): what a
 * visitor may upload, how large, how many per report. One place, read by the API (schemas.ts, the
 * presigned policy, the report checks) and by the widget (which imports these plain constants, never zod,
 * to stay within its size budget).
 */

export const uploadKinds = ['screenshot', 'video', 'snapshot', 'file'] as const;
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
} as const;

/**
 * Flood limits of the intake calls (docs/decisions.md "Widget intake"), fixed windows counted in the table
 * (core/rate-limit.ts). A visitor is an IP address (an IPv6 address counts by its /64) seen by CloudFront.
 */
export const intakeRateLimits = {
  /** Reports per visitor and project: a person files a few, a script many. */
  reportPerVisitor: { action: 'report-ip', max: 10, windowMs: 10 * 60_000 },
  /** Reports per project and day, whatever the visitors: bounds a distributed flood's cost and noise. */
  reportPerProject: { action: 'report-project', max: 500, windowMs: 24 * 3_600_000 },
  /** Upload slots per visitor and project (a full report uses up to 21: 5 + 5 snapshots, 1 video, 10 files). */
  uploadPerVisitor: { action: 'upload-ip', max: 120, windowMs: 10 * 60_000 },
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
