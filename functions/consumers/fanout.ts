/**
 * Fan-out consumer (docs/data-model.md 4.8): parses each fan-out message and hands it to the fan-out
 * (functions/integrations/fan-out.ts), which sends one delivery message per target.
 */
import { fanoutMessageSchema } from '#contracts/messages';
import { batchHandler } from '#runtime/batch';
import { fanOut } from '../integrations/fan-out';

export const handler = batchHandler('fanout', fanoutMessageSchema, fanOut);
