/**
 * The widget's intake calls as zod schemas (DESIGN.md section 8 "widget upload" and "widget report"): the
 * upload request, the upload key, a visitor's strings and the report. Apart from schemas.ts so only the
 * functions that take a report (and the reporter's reply, a visitor's text too) carry them; the plain
 * limits the widget itself reads stay in intake.ts, which has no zod.
 */
import * as z from 'zod';
import type { ErrorCode } from './errors';
import { deviceTypes, replayStops, reportLimits, screenshotTypes, stepKinds, uploadKinds } from './intake';
import { limits } from './limits';
import { nameText, widgetLanguages } from './schemas';
import { hasForbidden, visibleChar } from './text';

const code = (c: ErrorCode) => ({ error: c });

/** POST /api/website/{id}/upload: what the visitor is about to upload. */
export const uploadRequestSchema = z.object({
  kind: z.enum(uploadKinds),
  type: z.string().trim().toLowerCase().min(1).max(200),
  size: z.number().int().min(1),
});

/**
 * A key the upload call issued: `pending/<projectId>/<kind>/<uuid>.<ext>`. Its shape is checked here; that
 * it was issued for this project, exists with an allowed size and type and is used once, by the report.
 */
export const uploadKeyField = z
  .string()
  .max(200)
  .regex(
    /^pending\/[0-9a-f-]{36}\/(screenshot|video|snapshot|file|replay)\/[0-9a-f-]{36}\.[a-z0-9]{2,5}$/,
    code('INVALID_UPLOAD'),
  );

/**
 * Visitor strings (issue 19): the name rule of contracts/text.ts holds for everything a visitor sends, so no
 * control, format or bidi character reaches the dashboard, a download name or an integration. `multiline`
 * (a description, a log line, a custom field's page text) keeps line feeds and tabs; CRLF counts as LF.
 * The widget cleans what it sends (cleanText), so only a hand-made call meets the refusal.
 */
export const visitorText = (max: number, { multiline = false, required = false } = {}) =>
  z
    .string()
    .transform((v) => v.normalize('NFC').replace(/\r\n?/g, '\n').trim())
    .pipe(
      z
        .string()
        .min(required ? 1 : 0)
        .max(max)
        .refine((v) => !hasForbidden(v, multiline) && (!required || visibleChar.test(v))),
    );

const shortText = (max: number) => visitorText(max).default('');

/** A visitor's file name: a name (above) and no path, so no download can name a folder. */
const visitorFileName = nameText(reportLimits.originalNameMax).refine((v) => !/[/\\]/.test(v));

/**
 * How far before the report's moment a log entry or a step may lie: a page left open all day. A day is past
 * any loader buffer's or session's reach and still reads as a time on the issue page.
 */
export const REPORT_TIME_WINDOW_MS = 24 * 60 * 60 * 1000;

type Timed = { t: number };

/**
 * Implausible times made plausible, never a refusal (a report is filed whatever its loader's clock said):
 * each log entry's and step's `t` is clamped into the day before the report's moment, on the visitor's
 * clock as the dashboard takes it (the replay's end, else `sentAt`, else `now`: the parser's clock), so `1`
 * (epoch ms) reads "a day or more before the report", not 56 years, and a time after the moment reads "at
 * the report". The entries' texts are kept: an error's message is worth more than its time. Shared by the
 * widget's intake and v1's create.
 */
export function plausibleTimes<
  B extends {
    logs: Timed[];
    steps: Timed[];
    sentAt?: number | undefined;
    replay?: { end: number } | undefined;
  },
>(body: B, now = Date.now()): B {
  const at = body.replay?.end ?? body.sentAt ?? now;
  const clamp = <E extends Timed>(e: E): E => {
    const t = Math.min(at, Math.max(at - REPORT_TIME_WINDOW_MS, e.t));
    return t === e.t ? e : { ...e, t };
  };
  return { ...body, logs: body.logs.map(clamp), steps: body.steps.map(clamp) };
}

/** POST /api/website/{id}/request: the report itself (SPEC.md section 3 issue `data`, plus keys and logs). */
export const reportSchema = z
  .object({
    msg: visitorText(reportLimits.descriptionMax, { multiline: true, required: true }),
    title: shortText(reportLimits.titleMax),
    username: z.union([z.literal(''), z.email().max(reportLimits.emailMax)]).default(''),
    href: z
      .union([z.literal(''), z.url({ protocol: /^https?$/ }).max(reportLimits.hrefMax)])
      .refine((v) => !hasForbidden(v))
      .default(''),
    browser: shortText(50),
    browserVersion: shortText(50),
    os: shortText(50),
    osVersion: shortText(50),
    deviceType: z.enum(deviceTypes).default('Desktop'),
    screenResolution: z.union([z.literal(''), z.string().regex(/^\d{1,5}x\d{1,5}$/)]).default(''),
    customFields: z
      .array(
        z.object({
          name: nameText(50),
          value: visitorText(reportLimits.customFieldValueMax, { multiline: true }),
        }),
      )
      .max(limits.projectCustomFields)
      .default([]),
    screenshots: z
      .array(
        z.object({
          key: uploadKeyField,
          type: z.enum(screenshotTypes),
          /** The page snapshot taken with this screenshot; empty or absent when there is none. */
          snapshotKey: z.union([z.literal(''), uploadKeyField]).optional(),
        }),
      )
      .max(reportLimits.screenshotsMax + reportLimits.videosMax)
      .default([]),
    files: z
      .array(z.object({ key: uploadKeyField, original_name: visitorFileName }))
      .max(reportLimits.filesMax)
      .default([]),
    logs: z
      .array(
        z.object({
          t: z.number().int().nonnegative(),
          level: z.enum(['error', 'warn']),
          kind: z.enum(['console', 'exception', 'rejection', 'network']),
          msg: visitorText(reportLimits.logMessageMax, { multiline: true }),
        }),
      )
      .max(reportLimits.logsMax)
      .default([]),
    /** The visitor's last actions, oldest first (contracts/intake.ts `Step`); every plan. */
    steps: z
      .array(
        z.object({
          t: z.number().int().nonnegative(),
          kind: z.enum(stepKinds),
          label: visitorText(reportLimits.stepLabelMax),
        }),
      )
      .max(reportLimits.stepsMax)
      .default([]),
    /**
     * The session replay (a `replay` upload; paid plans with replay on): what it covers, epoch ms, and why
     * it ended early. Absent: none recorded, or the visitor left it out.
     */
    replay: z
      .object({
        key: uploadKeyField,
        start: z.number().int().nonnegative(),
        end: z.number().int().nonnegative(),
        stopped: z.enum(replayStops).optional(),
      })
      .refine((r) => r.end >= r.start)
      .optional(),
    /**
     * When the visitor pressed Send, on their own clock (epoch ms). The steps', logs' and replay's times are
     * on that clock too, so "12 s before the report" is measured against it, whatever the clock's skew from
     * the server's. Absent (older widgets): the creation stands in.
     */
    sentAt: z.number().int().nonnegative().optional(),
    /** A solved proof of work (altcha payload, base64), needed only after PROOF_REQUIRED (a busy project). */
    proof: z.string().max(8192).optional(),
    /** The language the widget spoke (it writes to the reporter in it); absent: the project's widget language. */
    language: z.enum(widgetLanguages).optional(),
  })
  // `overwrite` keeps the object's shape (v1's create reuses its fields and applies the same).
  .overwrite((body) => plausibleTimes(body));
export type ReportBody = z.infer<typeof reportSchema>;
export type ReportInput = z.input<typeof reportSchema>;
