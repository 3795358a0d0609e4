/**
 * How a failed zod parse becomes the API's answer and a form's marks (schemas.ts's module comment): a rule
 * whose failure has its own catalogue code carries that code as its issue message. Apart from schemas.ts,
 * so that the HTTP pipeline, which every function carries, carries no schema it does not use.
 */
import type * as z from 'zod';
import { type ErrorCode, errorMessage, isErrorCode, type Lang } from './errors';

/** The catalogue code a failed parse maps to. */
export function firstErrorCode(error: z.ZodError): ErrorCode {
  for (const issue of error.issues) if (isErrorCode(issue.message)) return issue.message;
  return 'INVALID_PARAMETERS';
}

/** Field paths of a failed parse, for forms that mark the offending input. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.join('.') || '_';
    out[key] ??= isErrorCode(issue.message) ? issue.message : 'INVALID_PARAMETERS';
  }
  return out;
}

type Words = Record<Lang, string>;
const say = (lang: Lang, words: Words, vars: Record<string, string | number> = {}) =>
  words[lang].replace(/\{(\w+)\}/g, (_, name: string) => String(vars[name] ?? ''));

/** zod's type names as a reader knows them. */
const typeNames: Record<string, Words> = {
  string: { en: 'text', de: 'Text' },
  number: { en: 'a number', de: 'eine Zahl' },
  int: { en: 'a whole number', de: 'eine ganze Zahl' },
  boolean: { en: 'true or false', de: 'true oder false' },
  array: { en: 'a list', de: 'eine Liste' },
  object: { en: 'an object', de: 'ein Objekt' },
  record: { en: 'an object', de: 'ein Objekt' },
  date: { en: 'a date', de: 'ein Datum' },
  null: { en: 'null', de: 'null' },
};

/** zod's string formats as a reader knows them. */
const formatNames: Record<string, Words> = {
  email: { en: 'an email address', de: 'eine E-Mail-Adresse' },
  url: { en: 'a URL', de: 'eine URL' },
  uuid: { en: 'an id (UUID)', de: 'eine ID (UUID)' },
  guid: { en: 'an id (UUID)', de: 'eine ID (UUID)' },
  date: { en: 'a date (YYYY-MM-DD)', de: 'ein Datum (JJJJ-MM-TT)' },
  datetime: {
    en: 'a date and time (ISO 8601, e.g. 2026-01-31T12:00:00Z)',
    de: 'ein Datum mit Uhrzeit (ISO 8601, z. B. 2026-01-31T12:00:00Z)',
  },
  time: { en: 'a time (HH:MM)', de: 'eine Uhrzeit (HH:MM)' },
};

/** How big a thing is, by what zod measured. */
const units: Record<string, Words> = {
  string: { en: 'characters', de: 'Zeichen' },
  array: { en: 'entries', de: 'Einträge' },
  set: { en: 'entries', de: 'Einträge' },
  file: { en: 'bytes', de: 'Bytes' },
};

const words = {
  expected: { en: 'expected {what}', de: 'erwartet: {what}' },
  required: { en: 'required', de: 'erforderlich' },
  oneOf: { en: 'expected one of: {values}', de: 'erwartet einen von: {values}' },
  atLeast: { en: 'at least {n} {unit}', de: 'mindestens {n} {unit}' },
  atMost: { en: 'at most {n} {unit}', de: 'höchstens {n} {unit}' },
  exactly: { en: 'exactly {n} {unit}', de: 'genau {n} {unit}' },
  numberMin: { en: 'a number of at least {n}', de: 'eine Zahl von mindestens {n}' },
  numberAbove: { en: 'a number above {n}', de: 'eine Zahl über {n}' },
  numberMax: { en: 'a number of at most {n}', de: 'eine Zahl von höchstens {n}' },
  numberBelow: { en: 'a number below {n}', de: 'eine Zahl unter {n}' },
  dateFrom: { en: 'a date from {n}', de: 'ein Datum ab {n}' },
  dateUntil: { en: 'a date until {n}', de: 'ein Datum bis {n}' },
  dateRange: {
    en: 'a date from {from} to {to} (YYYY-MM-DD)',
    de: 'ein Datum von {from} bis {to} (JJJJ-MM-TT)',
  },
  format: { en: 'the format {format}', de: 'das Format {format}' },
  pattern: { en: 'text in the required format', de: 'Text im vorgeschriebenen Format' },
  multipleOf: { en: 'a multiple of {n}', de: 'ein Vielfaches von {n}' },
  unknownKeys: { en: 'no such field: {keys}', de: 'unbekanntes Feld: {keys}' },
  union: { en: 'one of the allowed forms', de: 'eine der erlaubten Formen' },
  valid: { en: 'a valid value', de: 'ein gültiger Wert' },
} as const satisfies Record<string, Words>;

const dateOf = (ms: number | bigint) => new Date(Number(ms)).toISOString().slice(0, 10);

/**
 * A refinement's options that say which dates (YYYY-MM-DD, inclusive) it takes, so a refused date reads
 * "a date from … to …" in the caller's language instead of "a valid value".
 */
export const dateRangeRule = (from: string, to: string) => ({ params: { dateFrom: from, dateTo: to } });

/** One refusal in words: what the field takes. zod's own messages are English only, so they are not used. */
export function expectation(issue: z.core.$ZodIssue, lang: Lang): string {
  // A rule with its own catalogue code says what it wants in that code's message.
  if (isErrorCode(issue.message) && issue.message !== 'INVALID_PARAMETERS') {
    return errorMessage(issue.message, lang);
  }
  const expected = (what: string) => say(lang, words.expected, { what });
  switch (issue.code) {
    case 'invalid_type':
      // zod says "received undefined" for a missing field; the input itself is not kept in the issue.
      if (/received undefined$/.test(issue.message)) return say(lang, words.required);
      return expected(typeNames[issue.expected]?.[lang] ?? issue.expected);
    case 'invalid_value':
      return say(lang, words.oneOf, { values: issue.values.map(String).join(', ') });
    case 'too_small':
    case 'too_big': {
      const small = issue.code === 'too_small';
      const n = small ? issue.minimum : issue.maximum;
      const inclusive = issue.inclusive !== false;
      if (issue.origin === 'date')
        return expected(say(lang, small ? words.dateFrom : words.dateUntil, { n: dateOf(n) }));
      const unit = units[issue.origin];
      if (!unit) {
        const rule = small
          ? inclusive
            ? words.numberMin
            : words.numberAbove
          : inclusive
            ? words.numberMax
            : words.numberBelow;
        return expected(say(lang, rule, { n: String(n) }));
      }
      if (small && n === 1 && issue.origin === 'string') return say(lang, words.required);
      const rule = issue.exact ? words.exactly : small ? words.atLeast : words.atMost;
      return expected(say(lang, rule, { n: String(n), unit: unit[lang] }));
    }
    case 'invalid_format': {
      const named = formatNames[issue.format];
      if (named) return expected(named[lang]);
      if (issue.format === 'regex') return expected(say(lang, words.pattern));
      return expected(say(lang, words.format, { format: issue.format }));
    }
    case 'not_multiple_of':
      return expected(say(lang, words.multipleOf, { n: issue.divisor }));
    case 'unrecognized_keys':
      // The caller's own key names, shortened: an answer never echoes much of a request.
      return say(lang, words.unknownKeys, {
        keys: issue.keys
          .slice(0, 5)
          .map((k) => k.slice(0, 40))
          .join(', '),
      });
    case 'invalid_union':
      return expected(say(lang, words.union));
    case 'custom': {
      const { dateFrom, dateTo } = (issue.params ?? {}) as { dateFrom?: unknown; dateTo?: unknown };
      if (typeof dateFrom === 'string' && typeof dateTo === 'string')
        return expected(say(lang, words.dateRange, { from: dateFrom, to: dateTo }));
      return ownWords(issue, lang);
    }
    default:
      return ownWords(issue, lang);
  }
}

/** A refinement's own words (not zod's "Invalid input") as they are, else "a valid value". */
function ownWords(issue: z.core.$ZodIssue, lang: Lang): string {
  if (issue.message && !isErrorCode(issue.message) && !/^Invalid input/.test(issue.message))
    return issue.message;
  return say(lang, words.expected, { what: say(lang, words.valid) });
}

/** Per field of a failed parse (the paths of `fieldErrors`), what its first refusal expects. */
export function expectedOf(error: z.ZodError, lang: Lang): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.map(String).join('.') || '_';
    // Words are a courtesy: an issue of a shape not foreseen never turns a 400 into a 500.
    try {
      out[key] ??= expectation(issue, lang);
    } catch {
      out[key] ??= say(lang, words.expected, { what: say(lang, words.valid) });
    }
  }
  return out;
}

/** "field: what it expects" for each field, as the API's message adds them to INVALID_PARAMETERS. */
export const describeExpected = (expected: Record<string, string>): string =>
  Object.entries(expected)
    .slice(0, 5)
    .map(([field, what]) => (field === '_' ? what : `${field}: ${what}`))
    .join('; ');
