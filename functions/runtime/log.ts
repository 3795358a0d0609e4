/**
 * Structured JSON logs, one line per event (docs/decisions.md "Observability"). The lines keep the shape
 * Powertools' Logger gave them, which operators' queries use: `level` (upper case), `message`,
 * `timestamp`, `service`, `xray_trace_id` in Lambda, then the fields. Written here in a few lines rather
 * than through Powertools, which cost every function about 22 KB of bundle for features none used.
 * Every line of a request carries its `requestId`, and every line on a report's way from the intake
 * through fan-out to each delivery carries its `correlationId`.
 */
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
 * tests set LOG_LEVEL after the handlers' modules are loaded.
 */
function threshold(): number {
  try {
    return levels[getConfig().LOG_LEVEL];
  } catch {
    return levels.info;
  }
}

/**
 * The invocation's X-Ray trace id: the runtime's invoke store where invocations share a process, else
 * the variable Lambda sets per invocation (`Root=…;Parent=…;Sampled=…`); none outside Lambda.
 */
function traceId(): string | undefined {
  const store = (globalThis as { awslambda?: { InvokeStore?: { getXRayTraceId(): string | undefined } } })
    .awslambda?.InvokeStore;
  const header = store?.getXRayTraceId() ?? process.env._X_AMZN_TRACE_ID;
  if (!header) return undefined;
  return /(?:^|;)Root=([^;]*)/.exec(header)?.[1] ?? (header.includes('=') ? undefined : header);
}

/** Where in the code an error was thrown: the first `(file:line:column)` frame of its stack. */
function location(stack: string | undefined): string {
  for (const line of stack?.split('\n') ?? []) {
    const frame = /\(([^()]*?):(\d+?):(\d+?)\)\\?$/.exec(line);
    if (frame) return `${frame[1]}:${Number(frame[2])}`;
  }
  return '';
}

/** An error as data a query can read: name, location, message, stack, its cause, its own fields. */
function errorFields(error: Error): Record<string, unknown> {
  const { name, message, stack, cause } = error;
  const own: Record<string, unknown> = {};
  for (const key in error)
    if (!['name', 'message', 'stack', 'cause'].includes(key)) own[key] = error[key as never];
  return {
    name,
    location: location(stack),
    message,
    stack,
    cause: cause instanceof Error ? errorFields(cause) : cause,
    ...own,
  };
}

/** Errors anywhere in a line become their fields, bigints strings, and a circular reference is left out. */
function replacer() {
  const ancestors: unknown[] = [];
  return function (this: unknown, _key: string, value: unknown) {
    const v = value instanceof Error ? errorFields(value) : value;
    if (typeof v === 'bigint') return v.toString();
    if (typeof v === 'object' && v !== null) {
      while (ancestors.length > 0 && ancestors.at(-1) !== this) ancestors.pop();
      if (ancestors.includes(v)) return undefined;
      ancestors.push(v);
    }
    return v;
  };
}

/** A field with no value (undefined, null, '') is left out of the line; the line's own keys win over fields. */
function write(level: Level, message: string, fields: Record<string, unknown>): void {
  const line: Record<string, unknown> = {};
  const own = {
    level: level.toUpperCase(),
    message,
    timestamp: new Date().toISOString(),
    service: metricsService,
  };
  for (const [key, value] of Object.entries({ ...own, xray_trace_id: traceId(), ...fields, ...own }))
    if (value !== undefined && value !== null && value !== '') line[key] = value;
  // Warnings and errors on stderr, like the console methods of their names; both reach CloudWatch.
  const stream = levels[level] >= levels.warn ? process.stderr : process.stdout;
  stream.write(`${JSON.stringify(line, replacer())}\n`);
}

export function createLogger(base: Record<string, unknown> = {}): Logger {
  // The call's fields are merged into a copy, so a field given to one call does not leak into the next.
  const at = (level: Level) => (msg: string, fields?: Record<string, unknown>) => {
    if (levels[level] >= threshold()) write(level, msg, fields ? { ...base, ...fields } : base);
  };
  return {
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    child: (fields) => createLogger({ ...base, ...fields }),
  };
}

export const log = createLogger();
