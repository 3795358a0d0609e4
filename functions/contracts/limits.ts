/** Business constants of SPEC.md section 9: one place, used by schemas, API and dashboard. */
export const limits = {
  passwordMin: 6,
  loginInputMax: 100,
  nameMax: 50,
  projectNameMax: 100,
  projectUrlMax: 100,
  widgetTextMax: 50,
  /** The From name of the reporter's mails (issue 24). */
  reporterSenderNameMax: 60,
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
