/**
 * The visitor's text as the chat destinations show it (docs/decisions.md "Visitor text in customers' tools",
 * CH-1): nothing a visitor writes may mention, link or act in the customer's channel.
 *
 * - Invisible characters first: zero-width spaces and joiners, bidi overrides and isolates, the BOM and
 *   other control characters go, so that no trick hides a construct from the rules below (`@\u200Beveryone`
 *   reads as `@everyone`) or turns the text around (an RTL override making `gpj.exe` read `exe.jpg`).
 * - Both: a WORD JOINER (U+2060) after each `@` and `<`, inside `://` and after `www.`: the text reads the
 *   same, and matches no mention (`@everyone`, `@here`, `<@id>`, `<#id>`, `<@&id>`, Teams' `<at>`), no
 *   timestamp or command tag (`<t:…>`, `</cmd:id>`) and no autolink.
 * - Discord parses Markdown in embeds (titles, descriptions, field values): its punctuation is escaped with
 *   a backslash as Discord's own escaping does, so masked links `[x](y)`, code fences, headings, quotes,
 *   lists, spoilers and emphasis stay text.
 * - Teams: the card puts visitor text only in `TextRun`s, which Adaptive Cards never parse as Markdown
 *   ("Markdown is not supported", schema 1.5.0), so nothing is escaped there (a backslash would show).
 */

const JOIN = '\u2060';

/**
 * Zero-width and format characters (U+200B–U+200F, U+202A–U+202E, U+2060–U+2064, U+2066–U+206F, U+FEFF,
 * U+00AD, U+180E) and C0/C1 controls except tab and newline.
 */
const invisible =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u00AD\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF]/g;

/** The text with its invisible characters removed and its line ends made `\n`. */
export const visible = (s: string) => s.replace(/\r\n?/g, '\n').replace(invisible, '');

/** No mention, tag or autolink can form (see the module comment); reads the same. */
export const unlinked = (s: string) =>
  visible(s)
    .replace(/[@<]/g, (c) => `${c}${JOIN}`)
    .replace(/:\/\//g, `:/${JOIN}/`)
    .replace(/\bwww\./gi, (w) => `${w.slice(0, 3)}${JOIN}.`);

/** For a Teams `TextRun`: visible, unlinked, never parsed as Markdown by the card. */
export const teamsText = (s: string) => unlinked(s);

/** One line for a Teams `TextRun` (a fact, a file name): as `teamsText`, line breaks as spaces. */
export const teamsLine = (s: string) => teamsText(s).replace(/\s*\n\s*/g, ' ');

/** Discord Markdown's punctuation (emphasis, code, spoilers, quotes, headings, lists, links, escapes). */
const discordPunctuation = /[\\*_~`|>#\-[\]()!:]/g;

/** For Discord Markdown (embed title, description, field values): unlinked, then escaped. */
export const discordText = (s: string) => unlinked(s).replace(discordPunctuation, '\\$&');

/** One line of Discord Markdown (a fact, a file name): as `discordText`, line breaks as spaces. */
export const discordLine = (s: string) => discordText(visible(s).replace(/\s*\n\s*/g, ' '));

/**
 * At most `max` characters of an escaped text, with `…` when cut; never ends in the lone backslash of an
 * escape cut in two (it would escape whatever Snag writes next).
 */
export function fitted(s: string, max: number): string {
  if (s.length <= max) return s;
  let out = s.slice(0, max - 1);
  const trailing = /\\+$/.exec(out)?.[0].length ?? 0;
  if (trailing % 2 === 1) out = out.slice(0, -1);
  return `${out}…`;
}
