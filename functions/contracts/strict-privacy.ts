/**
 * Strict privacy mode (docs/privacy.md "Strict privacy mode", a project's `strictPrivacy`): what a report
 * keeps when the project asks for the least. One pure function, without Node or zod, so that the widget
 * applies it before sending and the filing core again before storing (a modified or old widget cannot
 * bypass it):
 * - every address loses its query string and fragment (the page address, addresses inside log lines and
 *   failed requests, steps' labels): that is where sessions, search terms and ids travel;
 * - every log line keeps its first line only (a console call's further arguments, a stack trace);
 * - the visitor's email is dropped (the widget does not ask for it either).
 * What the visitor wrote (title, description) and custom fields (the customer's own choice) are kept.
 */

/** A URL's query string and fragment removed: `https://a.example/b?c=1#d` → `https://a.example/b`. */
export const bareAddress = (url: string): string => url.replace(/[?#][\s\S]*$/, '');

/**
 * Addresses inside free text: an absolute URL of any scheme (`https://…`, `ws://…`), or a path starting
 * with `/` at the start of a word (a failed request's `GET /api/x?id=1 500`). Both end at whitespace, a
 * quote or an angle bracket.
 */
const addressInText = /(^|[\s"'(=[,])((?:[a-z][a-z0-9+.-]*:\/\/|\/)[^\s"'<>]*)/gi;

/**
 * Every address in `text` with its query string and fragment removed; everything else as it was, down to
 * the punctuation that closes a sentence or a parenthesis after an address (`(see /a?b=1).`).
 */
export function bareAddresses(text: string): string {
  return text.replace(addressInText, (_all, before: string, url: string) => {
    const bare = bareAddress(url);
    const closing = /[)\].,;:!]*$/.exec(url.slice(bare.length))?.[0] ?? '';
    return before + bare + closing;
  });
}

/** The first line that says something (a message that starts with an empty line keeps its first words). */
export const firstLineOf = (text: string): string =>
  text.split(/\r\n|\r|\n/).find((line) => line.trim() !== '') ?? '';

/** What strict mode touches in a report, as the widget sends it and the intake receives it. */
export interface StrictParts {
  username?: string;
  href?: string;
  logs?: { msg: string }[];
  steps?: { label: string }[];
}

/** `body` as a strict project keeps it (see the header); other fields pass through untouched. */
export function strictReport<T extends StrictParts>(body: T): T {
  return {
    ...body,
    ...(body.username !== undefined ? { username: '' } : {}),
    ...(body.href !== undefined ? { href: bareAddress(body.href) } : {}),
    ...(body.logs ? { logs: body.logs.map((l) => ({ ...l, msg: bareAddresses(firstLineOf(l.msg)) })) } : {}),
    ...(body.steps ? { steps: body.steps.map((s) => ({ ...s, label: bareAddresses(s.label) })) } : {}),
  };
}
