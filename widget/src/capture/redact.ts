/**
 * The one redaction of text the widget gathers on its own, without the visitor writing it (docs/replay.md
 * "Recorder"): the log lines (report.ts `reportLogs`) and the labels of the steps to reproduce
 * (activity/steps.ts). A button, a link or a console message may carry an email address, a card or phone
 * number or an access token of the person on the page; each becomes a placeholder before it leaves the
 * page. What the visitor types into the form is theirs to send and is not touched.
 *
 * ES2019 (Safari before 16.4 has no lookbehind): the character before a number is matched and put back.
 */

/** `name@host.tld`. */
const email = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g;

/**
 * Nine digits or more, alone or grouped by single spaces, dashes or dots, optionally after `+`: card, phone,
 * account and ID numbers. Not part of a word or of a longer dotted or timed value (`2026-11-29 07:23` is a
 * time, not a number; a version `1.2.3` has too few digits).
 */
const number = /(^|[^\w.+:])\+?\d(?:[ .-]?\d){8,}(?![\w.:])/g;

/**
 * Tokens: a JSON Web Token, a bearer credential, and any run of 24 or more letters, digits, `_` or `-`
 * that holds both a letter and a digit (API keys, session ids, hashes).
 */
const token = /\beyJ[\w-]*\.[\w-]+\.[\w-]*|\bBearer\s+\S+|\b(?=[\w-]*\d)(?=[\w-]*[A-Za-z])[\w-]{24,}/g;

/** `text` with email addresses, long numbers and tokens replaced by `[email]`, `[number]` and `[token]`. */
export function redact(text: string): string {
  return text.replace(token, '[token]').replace(email, '[email]').replace(number, '$1[number]');
}
