/**
 * Business metrics (issue 10): their names and dimensions, shared by the functions that emit them
 * (functions/runtime/metrics.ts, as CloudWatch embedded metric format lines) and the CDK dashboard
 * (lib/stacks/monitoring.ts), so a renamed metric cannot leave an empty graph behind.
 */
export const metricsNamespace = 'Snag';

/** The `service` dimension every Snag metric carries, beside `stage`. */
export const metricsService = 'snag';

export const businessMetrics = {
  /** A visitor's report was stored (the intake, after the issue is written). */
  reportFiled: 'ReportsFiled',
  /** A report stored past its project's daily threshold, not sent to the integrations (issue 19). */
  reportHeld: 'ReportsHeld',
  /** A report's recording carried an input value and was not stored (the report was, without it). */
  replayRefused: 'ReplaysRefused',
  /** One issue reached one integration; dimension `integration`. */
  deliveryPassed: 'DeliveriesPassed',
  /** One attempt to reach an integration failed (it is retried, then dead-lettered); dimension `integration`. */
  deliveryFailed: 'DeliveriesFailed',
  /** A Stripe checkout completed (the billing webhook, when billing lands). */
  checkoutCompleted: 'CheckoutsCompleted',
  /** Resolved issues deleted by retention (docs/retention.md), counted per project and run. */
  issuesExpired: 'IssuesExpired',
} as const;

export type BusinessMetric = keyof typeof businessMetrics;
