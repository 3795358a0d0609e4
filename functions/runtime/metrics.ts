/**
 * Business metrics as CloudWatch embedded metric format lines, through Powertools for AWS Lambda's
 * Metrics (docs/decisions.md "Observability"). Names and dimensions are functions/contracts/metrics.ts's,
 * which the CDK dashboard reads too. Each call writes its line at once (a single metric), so no handler
 * has to remember to flush. With LOG_LEVEL=silent (the test suites) nothing is written.
 */
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { IntegrationName } from '#contracts/messages';
import { type BusinessMetric, businessMetrics, metricsNamespace, metricsService } from '#contracts/metrics';
import { getConfig } from './config';

let metrics: Metrics | undefined;
const instance = () => {
  metrics ??= new Metrics({
    namespace: metricsNamespace,
    serviceName: metricsService,
    defaultDimensions: { stage: getConfig().SNAG_STAGE },
  });
  return metrics;
};

/**
 * Counts one business event: `reportFiled`, `deliveryPassed`/`deliveryFailed` (with the integration),
 * `checkoutCompleted` (for the billing webhook when it lands). Never throws: a metric must not fail the
 * work it counts.
 */
export function countBusiness(metric: BusinessMetric, integration?: IntegrationName): void {
  if (getConfig().LOG_LEVEL === 'silent') return;
  try {
    const single = instance().singleMetric();
    if (integration) single.addDimension('integration', integration);
    single.addMetric(businessMetrics[metric], MetricUnit.Count, 1);
  } catch {
    // Nothing to do: the work succeeded, only its count is lost.
  }
}
