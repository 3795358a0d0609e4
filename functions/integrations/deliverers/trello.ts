/**
 * The Trello deliverer (issue 36): a card in the chosen list with a Markdown description, then the
 * screenshots (and files within the caps) attached as files. The card's id is recorded as soon as it
 * exists, so a retry only attaches what is missing (by name, as Jira's) and never makes a second card.
 */
import { getConfig } from '#runtime/config';
import type { Deliverer, DeliveryContext, DeliveryIssue } from '../deliver';
import { FILE_LINK_DAYS } from '../links';
import { type GuardedFetch, guardedHttp } from '../vendors/http';
import * as trello from '../vendors/trello';
import { facts, filesToSend, mapped, markdownSteps, needs, title } from './common';

/**
 * Trello renders a card's name and description as Markdown and acts on them in the customer's name:
 * `@username`, `@card` and `@board` notify people, links (and bare addresses) are clickable, an image
 * link loads from anywhere. None of that may come from a visitor (docs/decisions.md "Visitor text in
 * customers' tools"). Markdown does none of it inside code, so:
 * - the description goes into a fenced code block whose fence is longer than any run of backticks in
 *   the text (the text cannot close it);
 * - one-line visitor values (facts, step labels, file names) go into code spans, delimited the same way;
 * - text outside code (the card's name, a commenter's name) loses invisible format characters (zero-width
 *   spaces and joiners, bidi controls: they could hide a word from this rule), then gets a WORD JOINER
 *   after each `@` and inside `://` and `www.`, and Markdown's punctuation escaped: it reads the same and
 *   matches no mention, link or emphasis.
 */
const JOIN = '\u2060';
const INVISIBLE = /[\u00AD\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/g;
const oneLine = (s: string) => s.replace(INVISIBLE, '').replace(/\s*[\r\n]+\s*/g, ' ');
export const trelloInert = (s: string) =>
  oneLine(s)
    .replace(/@/g, `@${JOIN}`)
    .replace(/:\/\//g, `:/${JOIN}/`)
    .replace(/\bwww\./gi, (w) => `${w.slice(0, 3)}${JOIN}.`);
const md = (s: string) => s.replace(/([\\`*_{}[\]()<>!|~#])/g, '\\$1');
/** Plain text outside code (a name): inert and escaped. */
export const trelloLine = (s: string) => md(trelloInert(s));

const longestBacktickRun = (s: string) => Math.max(0, ...(s.match(/`+/g) ?? []).map((run) => run.length));

export function trelloFenced(text: string): string {
  const fence = '`'.repeat(Math.max(3, longestBacktickRun(text) + 1));
  return `${fence}\n${text.replace(/\r\n?/g, '\n')}\n${fence}`;
}

/** A one-line code span: its delimiter longer than any backtick run inside, padded so edges are kept. */
export function trelloCode(text: string): string {
  const line = oneLine(text);
  const tick = '`'.repeat(longestBacktickRun(line) + 1);
  return `${tick} ${line} ${tick}`;
}

/** The card's name: Snag's `#<n>` and the visitor's first line, inert (names show no Markdown). */
export const trelloTitle = (issue: DeliveryIssue) => trelloInert(title(issue)).slice(0, 250);

/** The card's description: text, facts, steps, replay, files, the Snag link. */
export function trelloDescription(
  ctx: Pick<DeliveryContext, 'issue' | 'issueUrl' | 'files'> & { replay?: DeliveryContext['replay'] },
  attached: number,
): string {
  const lines = [ctx.issue.msg ? trelloFenced(ctx.issue.msg) : '_No description_', ''];
  for (const [k, v] of facts(ctx.issue)) lines.push(`- **${trelloLine(k)}:** ${trelloCode(v)}`);
  lines.push(...markdownSteps(ctx, { code: trelloCode }, FILE_LINK_DAYS));
  if (attached) lines.push('', `Screenshots: ${attached} attached to this card.`);
  const linked = ctx.files.map((f) => `- [Download](${f.url}) ${trelloCode(f.label)}`);
  if (linked.length) lines.push('', `**Files** (links valid ${FILE_LINK_DAYS} days):`, ...linked);
  lines.push('', `[Open in Snag](${ctx.issueUrl})`);
  return lines.join('\n');
}

export const trelloAuthOf = (data: { key: string; token: string }): trello.TrelloAuth => ({
  base: getConfig().TRELLO_API_URL,
  key: data.key,
  token: data.token,
});

export const deliverTrello: Deliverer<'trello'> = (ctx) =>
  mapped(async () => {
    const { key, token, list } = ctx.integration.data;
    if (!key || !token) needs('Trello', 'authorise it with an API key and a token');
    if (!list) needs('Trello', 'choose a board and a list');
    const auth = trelloAuthOf(ctx.integration.data);
    // Snag's setting names the host, but the guard is the one client every tracker call goes through.
    const http = guardedHttp(ctx.http as GuardedFetch);
    const files = await filesToSend(ctx, 'screenshots');
    let card = ctx.vendorId;
    let url: string | undefined;
    let attached = new Set<string>();
    if (!card) {
      const created = await trello.createCard(http, auth, {
        list,
        name: trelloTitle(ctx.issue),
        desc: trelloDescription(ctx, files.length),
      });
      card = created.id;
      url = created.url;
      await ctx.recordVendorId(card, url);
    } else {
      attached = new Set(await trello.attachmentNames(http, auth, card));
    }
    for (const file of files) {
      if (!attached.has(file.name)) await trello.attachFile(http, auth, card, file);
    }
    return { vendorId: card, ...(url ? { url } : {}) };
  });
