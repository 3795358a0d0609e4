/**
 * Structured JSON logs, one line per event, over Powertools for AWS Lambda's Logger (docs/decisions.md
 * "Observability"). Callers keep this small interface; Powertools adds the service, the timestamp and, in
 * Lambda, the X-Ray trace id. Every line of a request carries its `requestId`, and every line on a
 * report's way from the intake through fan-out to each delivery carries its `correlationId`.
 */
import { Logger as PowertoolsLogger } from '@aws-lambda-powertools/logger';
import { metricsService } from '#contracts/metrics';
import { getConfig } from './config';

const levels = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
type Level = Exclude<keyof typeof levels, 'silent'>;

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  child(fields: Record<string, unknown>): Logger;
}

/**
 * The level is read from the configuration on every line, not once at load: the local stack and the
 * tests set LOG_LEVEL after the handlers' modules are loaded. Powertools itself passes everything.
 */
function threshold(): number {
  try {
    return levels[getConfig().LOG_LEVEL];
  } catch {
    return levels.info;
  }
}

let root: PowertoolsLogger | undefined;
const rootLogger = () => {
  root ??= new PowertoolsLogger({ serviceName: metricsService, logLevel: 'DEBUG' });
  return root;
};

export function createLogger(base: Record<string, unknown> = {}): Logger {
  // One child per logger, its fields persistent, so a field given to one call does not leak into the next.
  let own: PowertoolsLogger | undefined;
  const target = () => {
    own ??= rootLogger().createChild({ persistentKeys: base });
    return own;
  };
  const write = (level: Level, msg: string, fields?: Record<string, unknown>) => {
    if (levels[level] < threshold()) return;
    if (fields) target()[level](msg, fields);
    else target()[level](msg);
  };
  return {
    debug: (m, f) => write('debug', m, f),
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
    child: (fields) => createLogger({ ...base, ...fields }),
  };
}

export const log = createLogger();
