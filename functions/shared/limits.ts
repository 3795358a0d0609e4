/**
 * The widget texts a client may replace (widgetTexts in schemas.ts), each at most this long. The keys are
 * the widget's own message keys (widget/src/i18n/en.ts); a constant of its own so that the widget, which
 * overlays these keys, does not bundle the other limits.
 */
export const widgetTextsMax = {
  title: 50,
  welcomeTitle: 100,
  welcomeText: 500,
  descriptionPlaceholder: 150,
  thanksText: 300,
} as const;
export type WidgetTextKey = keyof typeof widgetTextsMax;
export const widgetTextKeys = Object.keys(widgetTextsMax) as WidgetTextKey[];

/** Business constants of SPEC.md section 9: one place, used by schemas, API and dashboard. */
export const limits = {
  passwordMin: 6,
  loginInputMax: 100,
  nameMax: 50,
  projectNameMax: 100,
  projectUrlMax: 100,
  widgetTextMax: 50,
  widgetTextsMax,
  issueSearchMax: 50,
  issuesPerPage: 10,
  paginationRadius: 2,
  projectCustomFields: 3,
  jiraCustomFields: 10,
  emailCcMax: 3,
  confirmationCodeLength: 8,
  confirmUsernameMin: 3,
  toastMs: 3000,
  socialButtonDelayMs: 250,
  defaultWidgetColor: '#4F4EAE',
  /** Largest JSON body any dashboard or widget call accepts (uploads go to S3 directly). */
  maxJsonBodyBytes: 256 * 1024,
} as const;

/** Per-issue integration status codes (SPEC.md section 4). */
export const ticketStatus = { notConfigured: 0, inProgress: 1, passed: 2, failed: 3 } as const;
