/**
 * The one rule for what stored text may hold (issue 19), as plain regular expressions so that the widget can
 * clean what it sends without zod: schemas.ts builds the owners' names and every visitor string on it, the
 * widget strips the same characters before a report leaves the page, and downloads strip them from names
 * stored before the rule covered visitors.
 *
 * Forbidden: control characters (C0, C1: a null byte, BEL, ANSI escapes), format characters (bidi overrides
 * such as U+202E that make `invoice\u202Efdp.exe` read "invoiceexe.pdf", zero widths, the BOM, Unicode tag
 * characters that can smuggle invisible text) and lone surrogates. ZWNJ and ZWJ stay allowed after a
 * letter, mark or symbol and before one, where Persian, Indic scripts and emoji sequences (a skin tone
 * modifier is a symbol too) need them.
 */

const forbiddenSource =
  '[\\p{Cc}\\p{Cs}]|(?<![\\p{L}\\p{M}\\p{S}])[\\u200C\\u200D]|[\\u200C\\u200D](?![\\p{L}\\p{M}\\p{S}])|(?![\\u200C\\u200D])\\p{Cf}';

/** One forbidden character anywhere (test with it; it holds no state). */
export const forbiddenChar = new RegExp(forbiddenSource, 'u');

/** Something a reader can see: a letter, digit, punctuation or symbol other than the blank fillers. */
export const visibleChar = /(?![\u115F\u1160\u2800\u3164\uFFA0])[\p{L}\p{N}\p{P}\p{S}]/u;

/** Line breaks and tabs: the only control characters multi-line text (a description, a log line) keeps. */
const layout = /[\n\t]/g;

/** Whether `value` holds a forbidden character; with `multiline`, line feeds and tabs are allowed. */
export function hasForbidden(value: string, multiline = false): boolean {
  return forbiddenChar.test(multiline ? value.replace(layout, ' ') : value);
}

/**
 * `value` as the API accepts it: NFC, CRLF and CR as LF, forbidden characters removed (with `multiline`,
 * line feeds and tabs kept; without, each becomes a space), trimmed, and cut to `max` UTF-16 units without
 * splitting a surrogate pair (half an emoji would be a lone surrogate, itself refused). The widget sends
 * only cleaned text.
 */
export function cleanText(value: string, { multiline = false, max = Number.POSITIVE_INFINITY } = {}): string {
  const unified = String(value).normalize('NFC').replace(/\r\n?/g, '\n');
  const all = new RegExp(forbiddenSource, 'gu');
  const cleaned = (multiline ? unified.split(/([\n\t])/) : [unified.replace(layout, ' ')])
    .map((part) => (part === '\n' || part === '\t' ? part : part.replace(all, '')))
    .join('')
    .trim();
  if (cleaned.length <= max) return cleaned;
  const cut = cleaned.slice(0, max);
  return (/[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut).trimEnd();
}
