/**
 * Delivery consumer: sends one issue to one integration. Each integration issue registers its deliverer
 * in `deliverers`; a message for an integration without one fails, is retried, and lands in the DLQ.
 */

import { batchHandler } from '../core/batch';
import type { Logger } from '../core/log';
import { type DeliveryMessage, deliveryMessageSchema, type IntegrationName } from '../core/messages';
import { countBusiness } from '../core/metrics';
import type { DelivererRegistry } from '../integrations/deliver';
import { vendorDeliverersBuiltIn } from '../integrations/vendors/deliverers';

export type Deliverer = (message: DeliveryMessage, log: Logger) => Promise<void>;

/** The vendor deliverers (functions/integrations/deliver.ts contract), by integration. */
export const vendorDeliverers: DelivererRegistry = { ...vendorDeliverersBuiltIn };

export const deliverers: Partial<Record<IntegrationName, Deliverer>> = {};

export const handler = batchHandler('delivery', deliveryMessageSchema, async (msg, log) => {
  try {
    const deliver = deliverers[msg.integration];
    if (!deliver) throw new Error(`no deliverer for ${msg.integration}`);
    await deliver(msg, log);
  } catch (err) {
    // Each failed attempt counts; the batch handler logs it and the queue retries it.
    countBusiness('deliveryFailed', msg.integration);
    throw err;
  }
  countBusiness('deliveryPassed', msg.integration);
  log.info('delivered', { ...msg });
});
