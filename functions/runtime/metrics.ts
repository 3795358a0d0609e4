/**
 * Business metrics as CloudWatch embedded metric format lines (docs/decisions.md "Observability"). Names
 * and dimensions are functions/contracts/metrics.ts's, which the CDK dashboard reads too. Each call writes
 * its line at once (a single metric), so no handler has to remember to flush. The line is the one
 * Powertools' `singleMetric()` wrote, built here because the format is one object and Powertools cost the
 * counting functions about 15 KB of bundle. With LOG_LEVEL=silent (the test suites) nothing is written.
 */
import type { IntegrationName } from '#contracts/messages';
import { type BusinessMetric, businessMetrics, metricsNamespace, metricsService } from '#contracts/metrics';
import { getConfig } from './config';

/**
 * Counts one business event: `reportFiled`, `deliveryPassed`/`deliveryFailed` (with the integration),
 * `checkoutCompleted` (for the billing webhook when it lands), `issuesExpired` (`value`: how many). Never throws: a metric must not fail the
 * work it counts.
 */
export function countBusiness(metric: BusinessMetric, integration?: IntegrationName, value = 1): void {
  const config = getConfig();
  if (config.LOG_LEVEL === 'silent') return;
  try {
    const dimensions: Record<string, string> = { service: metricsService, stage: config.SNAG_STAGE };
    if (integration) dimensions.integration = integration;
    const name = businessMetrics[metric];
    const directive = {
      Namespace: metricsNamespace,
      Dimensions: [Object.keys(dimensions)],
      Metrics: [{ Name: name, Unit: 'Count' }],
    };
    const line = {
      _aws: { Timestamp: Date.now(), CloudWatchMetrics: [directive] },
      ...dimensions,
      [name]: value,
    };
    process.stdout.write(`${JSON.stringify(line)}\n`);
  } catch {
    // Nothing to do: the work succeeded, only its count is lost.
  }
}
