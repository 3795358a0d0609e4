/**
 * The Microsoft Teams deliverer (issue 36): one Adaptive Card per new issue, posted to the channel's
 * Workflows webhook. The card: the title, the description, the page and the device, the steps to reproduce,
 * the first screenshot as an image from its signed link, the files as links, and buttons to open the issue
 * in Snag and to watch the replay. Every visitor value is a `TextRun` (never parsed as Markdown) through
 * `teamsText` (chat-text.ts): nothing in it can mention, link or act in the channel.
 *
 * One call, no id back (202, empty): the receipt `<status>@<unix s>` is the vendor id, so a redelivered
 * message posts nothing twice; an attempt whose outcome is unknown asks before Sync (the catalogue's `ask`).
 */
import { CHAT_LINK_DAYS } from '#contracts/chat-integrations';
import { DAY, nowMs } from '#runtime/time';
import { teamsLine, teamsText } from '../chat-text';
import type { Deliverer, DeliveryContext } from '../deliver';
import { numbered, replayNote, stepSentences, stepTexts } from '../steps';
import {
  type AdaptiveCard,
  CARD_SCHEMA,
  CARD_VERSION,
  postTeamsMessage,
  teamsMessage,
} from '../vendors/teams';
import { facts, mimeOf, needs, title } from './common';

/** Teams drops a message over about 28 KB: the visitor's text is cut well below it. */
const DESCRIPTION_MAX = 6000;
const STEPS_MAX = 20;

const run = (text: string, extra: Record<string, unknown> = {}) => ({ type: 'TextRun', text, ...extra });

/** The card of one issue (also what the schema test validates). */
export function teamsCard(
  ctx: Pick<DeliveryContext, 'issue' | 'issueUrl' | 'screenshots' | 'files' | 'replay'>,
): AdaptiveCard {
  const t = stepTexts();
  const body: Record<string, unknown>[] = [
    {
      type: 'RichTextBlock',
      inlines: [run(teamsLine(title(ctx.issue)), { size: 'Large', weight: 'Bolder' })],
    },
    {
      type: 'RichTextBlock',
      inlines: [
        ctx.issue.msg
          ? run(teamsText(ctx.issue.msg).slice(0, DESCRIPTION_MAX))
          : run('No description', { isSubtle: true, italic: true }),
      ],
    },
  ];
  for (const [name, value] of facts(ctx.issue).slice(0, 12)) {
    body.push({
      type: 'RichTextBlock',
      spacing: 'Small',
      inlines: [run(`${teamsLine(name)}: `, { weight: 'Bolder' }), run(teamsLine(value).slice(0, 1000))],
    });
  }
  const steps = numbered(stepSentences(ctx.issue, { text: teamsLine })).slice(-STEPS_MAX);
  if (steps.length) {
    body.push({ type: 'RichTextBlock', inlines: [run(t.heading, { weight: 'Bolder' })] });
    for (const s of steps) body.push({ type: 'RichTextBlock', spacing: 'None', inlines: [run(s)] });
  }
  if (ctx.replay) {
    body.push({
      type: 'RichTextBlock',
      inlines: [run(replayNote(ctx.replay, CHAT_LINK_DAYS), { isSubtle: true })],
    });
  }
  const image = ctx.screenshots.find((s) => mimeOf(s.type).startsWith('image/'));
  if (image) {
    body.push({
      type: 'Image',
      url: image.url,
      altText: 'Screenshot of the page',
      size: 'Stretch',
      selectAction: { type: 'Action.OpenUrl', url: image.url, title: 'Open the screenshot' },
    });
  }
  const links = [
    ...ctx.screenshots
      .filter((s) => s !== image)
      .map((s, i) => ({ label: `Screenshot ${i + 2}`, url: s.url })),
    ...ctx.files.map((f) => ({ label: teamsLine(f.label).slice(0, 200), url: f.url })),
  ].slice(0, 20);
  if (links.length) {
    body.push({
      type: 'RichTextBlock',
      inlines: [run(`Files (links work for ${CHAT_LINK_DAYS} days)`, { weight: 'Bolder' })],
    });
    for (const l of links) {
      body.push({
        type: 'RichTextBlock',
        spacing: 'None',
        inlines: [run(l.label, { selectAction: { type: 'Action.OpenUrl', url: l.url, title: l.label } })],
      });
    }
  }
  return {
    $schema: CARD_SCHEMA,
    type: 'AdaptiveCard',
    version: CARD_VERSION,
    // What a client that cannot draw the card (and the notification) shows: Snag's words and the number only.
    fallbackText: `New issue #${ctx.issue.number} in Snag`,
    body,
    actions: [
      { type: 'Action.OpenUrl', title: 'Open in Snag', url: ctx.issueUrl },
      ...(ctx.replay ? [{ type: 'Action.OpenUrl', title: t.watch, url: ctx.replay.url }] : []),
    ],
  };
}

/** The links must work as long as the card stays in the channel (decision CH-2). */
export const deliverTeams: Deliverer<'teams'> = /* @__PURE__ */ Object.assign(
  async (ctx: DeliveryContext<'teams'>) => {
    if (ctx.vendorId) return { vendorId: ctx.vendorId };
    const url = ctx.integration.data.url;
    if (!url) needs('Microsoft Teams', 'paste the workflow URL');
    const status = await postTeamsMessage(ctx.http, url, teamsMessage(teamsCard(ctx)), ctx.signal);
    return { vendorId: `${status}@${Math.floor(nowMs() / 1000)}` };
  },
  { linkLifetimeMs: CHAT_LINK_DAYS * DAY },
);
