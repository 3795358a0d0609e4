/**
 * zod schemas for every input of SPEC.md section 5, shared by the dashboard's forms and the API.
 *
 * A rule whose failure has its own catalogue code carries that code as the issue message
 * (`{ error: 'USER_PASSWORD_LENGTH' }`); `firstErrorCode` (validation.ts) turns a failed parse into the
 * code the API answers with and the form shows. Any other failure is INVALID_PARAMETERS.
 */
import * as z from 'zod';
import { normaliseHost } from './domains';
import type { ErrorCode } from './errors';
import { integrationNames } from './integration-names';
import { limits } from './limits';
import { planNames } from './plans';
import { hasForbidden, visibleChar } from './text';
import { multiLineTexts, type WidgetTextKey, widgetTextKeys, widgetTextsMax } from './widget-texts';

const code = (c: ErrorCode) => ({ error: c });

/** Trimmed, required, at most `max` characters. */
const text = (max: number) => z.string().trim().min(1).max(max);

/**
 * A name a person reads (first and last name, project name, widget text, field names, a visitor's file
 * name): NFC, trimmed, required, at most `max` characters, nothing invisible or text-reordering in it
 * (contracts/text.ts), and not all blank.
 */
export const nameText = (max: number) =>
  z
    .string()
    .transform((v) => v.normalize('NFC').trim())
    .pipe(
      z
        .string()
        .min(1)
        .max(max)
        .refine((v) => !hasForbidden(v) && visibleChar.test(v)),
    );

/**
 * A text a client writes for the widget's visitors (widgetTexts): like `nameText`, but empty means "the
 * built-in translation" (the key is dropped), and with `lines` it may hold line breaks (normalised to \n).
 */
const optionalText = (max: number, lines = false) =>
  z
    .string()
    .transform((v) => v.normalize('NFC').replace(/\r\n?/g, '\n').trim())
    .pipe(
      z
        .string()
        .max(max)
        .refine((v) => v === '' || (!hasForbidden(v, lines) && visibleChar.test(v))),
    )
    .transform((v) => v || undefined)
    .optional();

export const emailField = z
  .string()
  .trim()
  .min(1, code('INVALID_EMAIL'))
  .max(limits.loginInputMax, code('INVALID_EMAIL'))
  .pipe(z.email(code('INVALID_EMAIL')))
  .transform((v) => v.toLowerCase());

export const newPasswordField = z
  .string()
  .min(limits.passwordMin, code('USER_PASSWORD_LENGTH'))
  .max(limits.loginInputMax, code('INVALID_PARAMETERS'));

export const loginSchema = z.object({
  _username: z.string().trim().min(1).max(limits.loginInputMax),
  _password: z.string().min(1).max(limits.loginInputMax),
});

/**
 * An invitation link's token (issue 22, docs/data-model.md 4.12): 128 random bits, base64url without
 * padding, 22 characters. Any other shape names no invitation.
 */
export const invitationTokenField = z.string().regex(/^[A-Za-z0-9_-]{22}$/, code('INVITATION_INVALID'));

export const registrationSchema = z.object({
  _username: emailField,
  _password: newPasswordField,
  firstName: nameText(limits.nameMax),
  lastName: nameText(limits.nameMax),
  altcha: z.string().min(1).max(4096),
  /** A pending invitation for this address: the account is created confirmed (the link proved it). */
  invitation: invitationTokenField.optional(),
});

export const googleSignInSchema = z.object({
  token: z.string().min(1).max(8192),
  invitation: invitationTokenField.optional(),
});

export const confirmationSchema = z.object({
  _username: z.string().trim().min(limits.confirmUsernameMin, code('INVALID_CODE')).max(limits.loginInputMax),
  confirmationCode: z.string().trim().length(limits.confirmationCodeLength, code('INVALID_CODE')),
});

export const usernameOnlySchema = z.object({ _username: emailField });

export const resetVerificationSchema = z.object({
  code: z.string().min(1).max(200),
  password: newPasswordField,
});

export const profileSchema = z.object({
  firstName: nameText(limits.nameMax),
  lastName: nameText(limits.nameMax),
});

export const passwordChangeSchema = z.object({
  oldPassword: z.string().min(1).max(limits.loginInputMax),
  newPassword: newPasswordField,
});

export const flag = z.union([z.literal(0), z.literal(1)]);

/** A domain or URL whose host the widget will match (contracts/domains.ts). */
export const projectUrlField = text(limits.projectUrlMax).refine(
  // Empty and over-long values already fail as INVALID_PARAMETERS; only a present, sized value is a domain question.
  (v) => v === '' || v.length > limits.projectUrlMax || normaliseHost(v) !== null,
  { error: 'INVALID_DOMAIN' },
);

export const projectSchema = z.object({
  name: nameText(limits.projectNameMax),
  url: projectUrlField,
  active: flag.default(1),
  activeParam: flag.default(0),
  /** The team to create it in (issue 22); default the team in use. (teams.ts `teamIdParam`; it imports this file) */
  teamId: z.uuid().optional(),
});

export const widgetLanguages = ['en', 'cs', 'fr', 'de', 'ru', 'es'] as const;
export const widgetPositions = ['rightMiddle', 'leftMiddle', 'rightBottom', 'leftBottom'] as const;

export const customFieldSchema = z.object({
  name: nameText(50),
  /** A class (`.name`) or id (`#name`) selector; nothing that could select more than the page offers. */
  selector: z
    .string()
    .trim()
    .max(100)
    .regex(/^[.#][A-Za-z_-][\w-]*$/),
});

/**
 * The widget texts a client may replace, for one language (functions/contracts/widget-texts.ts); each is
 * plain text (the widget never renders it as markup) and an absent key shows the built-in translation.
 * `title` is the panel's heading above the form.
 */
export const widgetTextSetSchema = z.strictObject(
  Object.fromEntries(
    widgetTextKeys.map((k) => [k, optionalText(widgetTextsMax[k], multiLineTexts.includes(k))]),
  ) as Record<WidgetTextKey, ReturnType<typeof optionalText>>,
);
export type WidgetTextSet = z.infer<typeof widgetTextSetSchema>;

/** The retention periods a project may choose, in days after an issue was resolved (null: forever). */
export const retentionPeriods = [30, 90, 180, 365] as const;
export type RetentionDays = (typeof retentionPeriods)[number] | null;

/** Widget settings (`data` of a project) with SPEC.md section 3 defaults. */
export const widgetSettingsSchema = z.object({
  widgetLanguage: z.enum(widgetLanguages).default('en'),
  /**
   * The widget follows the visitor's browser among `widgetLanguages`, `widgetLanguage` being the fallback
   * (docs/widget-api.md "Language"). Off by default: a project speaks its chosen language until its owner
   * switches this on.
   */
  widgetLanguageAuto: z.boolean().default(false),
  widgetColor: z
    .string()
    .trim()
    .regex(/^#[0-9a-fA-F]{6}$/)
    .transform((v) => v.toUpperCase())
    .default(limits.defaultWidgetColor),
  widgetColorScheme: z.enum(['white', 'black']).default('white'),
  widgetText: nameText(limits.widgetTextMax).default('Feedback'),
  widgetPosition: z.enum(widgetPositions).default('rightMiddle'),
  widgetDisableScreenshot: z.boolean().default(false),
  widgetDisableUpload: z.boolean().default(false),
  widgetDisableVideo: z.boolean().default(true),
  /**
   * Session replay (docs/replay.md): paid plans. Absent (every project made before replay existed): off
   * until the client turns it on; a new project on a paid plan is created with it on.
   */
  widgetReplay: z.boolean().default(false),
  /** The replay masks all text as well as every input (for sites that show personal data). */
  widgetReplayMaskText: z.boolean().default(false),
  /**
   * Retention (docs/retention.md): resolved issues are deleted this many days after they were resolved,
   * with their files, comments and status page; null keeps them forever (the default, and every project
   * made before retention existed). Copies in trackers are not touched.
   */
  retentionDays: z.literal(retentionPeriods).nullable().default(null),
  /**
   * Strict privacy mode (docs/privacy.md, contracts/strict-privacy.ts): addresses stored without query
   * string or fragment, log lines cut to their first line, no visitor email, replays with all text masked.
   * Enforced by the intake whatever the widget sends; off for every project made before it existed.
   */
  strictPrivacy: z.boolean().default(false),
  /**
   * Similar reports (docs/similar.md): a new report with exactly the same normalised page and first error
   * as an open issue gets an activity entry on both ("linked to #12"). Links, never merges; off by default.
   */
  linkExactMatches: z.boolean().default(false),
  widgetDisableWelcomeScreen: z.boolean().default(true),
  widgetDisableMobile: z.boolean().default(false),
  widgetDisableBranding: z.boolean().default(false),
  widgetDomainWildcard: z.boolean().default(false),
  customFields: z.array(customFieldSchema).max(limits.projectCustomFields).default([]),
  /**
   * The reporter hears back (issue 24, docs/reporter.md): mails to a reporter who left an address and their
   * status page `/r/{token}`. Off: no mail and the page answers 404.
   */
  reporterUpdates: z.boolean().default(true),
  /** The From name of those mails; empty: the project's name. No quotes or angle brackets (a header's syntax). */
  reporterSenderName: z
    .union([z.literal(''), nameText(limits.reporterSenderNameMax).refine((v) => !/["<>\\]/.test(v))])
    .default(''),
  /**
   * Own widget texts, one set per widget language (docs/decisions-widget.md): the widget shows the set
   * of `widgetLanguage`, so switching the language never shows texts written for another one.
   */
  widgetTexts: z
    .partialRecord(z.enum(widgetLanguages), widgetTextSetSchema)
    // A language whose texts are all empty keeps nothing: the built-in translation is the default.
    .transform((sets) => {
      for (const [lang, set] of Object.entries(sets) as [string, WidgetTextSet][]) {
        if (widgetTextKeys.every((k) => set[k] === undefined)) delete sets[lang as keyof typeof sets];
      }
      return sets;
    })
    .default({}),
});
export type WidgetSettings = z.infer<typeof widgetSettingsSchema>;

/** PATCH client/website/{id}: any subset; `data` is merged into the stored settings, then validated whole. */
export const projectUpdateSchema = z.object({
  name: nameText(limits.projectNameMax).optional(),
  url: projectUrlField.optional(),
  active: flag.optional(),
  activeParam: flag.optional(),
  data: z.record(z.string(), z.unknown()).optional(),
});

export const projectIdParam = z.uuid();

export const issueListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100000).default(1),
  search: z.string().trim().max(limits.issueSearchMax).optional(),
  resolved: z.enum(['0', '1', 'true', 'false']).optional(),
  /** The sync list of one integration instead (issue 11): `msg.requests` is `{ new, failed }`. */
  integration: z.enum(integrationNames).optional(),
});

/** An issue number in a path: digits only, 1 up to what 10-digit keys hold. */
export const ticketIdParam = z
  .string()
  .regex(/^[1-9][0-9]{0,9}$/)
  .transform(Number);

/** PATCH client/website/{id}/request/{ticketId}: close (`restore: false`) or restore. */
export const issueStateSchema = z.object({ restore: z.boolean() });

export const downloadQuerySchema = z.object({ download: z.enum(['0', '1', 'true', 'false']).optional() });

/**
 * The replay player's image and font proxy (GET client/replay-asset/{siteId}?url=): one absolute http(s)
 * address as the recording named it. Whether it may be called is the outbound guard's to say.
 */
export const replayAssetQuerySchema = z.object({
  url: z
    .string()
    .max(2048)
    .refine((value) => /^https?:\/\/[^/?#\s]/i.test(value) && URL.canParse(value), {
      message: 'an absolute http(s) address',
    }),
});

export const businessRequestSchema = z.object({
  company: text(200),
  period: z.coerce.number().pipe(z.union([z.literal(1), z.literal(3), z.literal(6), z.literal(12)])),
  payment_method: z.enum(['card', 'invoice']),
  country: text(100),
  country_code: z.string().regex(/^[A-Z]{2}$/),
  vat: z.string().trim().max(30).default(''),
  comment: z.string().max(2000).default(''),
});

/** POST /api/dev/plan (local only): sets a client's plan so plan-gated features can be tried before billing. */
export const devPlanSchema = z.object({
  username: emailField,
  plan: z.enum(planNames),
  days: z.number().int().min(1).max(3660).default(30),
  /** The team to grant (issue 22); default the user's team in use, their personal team. (teams.ts `teamIdParam`) */
  teamId: z.uuid().optional(),
});

// In validation.ts, which imports no schema: the HTTP pipeline maps every failed parse with them, and the
// functions that declare no schema of their own (the health probe) need not carry these.
export { fieldErrors, firstErrorCode } from './validation';

/** GET /api/dev/emails (local only): the mail the SES stand-in caught, optionally for one address. */
export const devEmailsQuery = z.object({ to: z.string().trim().max(200).optional() });
