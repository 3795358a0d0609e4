/**
 * The Slack deliverer: posts the message, records `<channel>/<ts>`, then shares the screenshots in its
 * thread and records `<channel>/<ts>#files`; a retry continues from whichever it finds.
 */
import { getConfig } from '#runtime/config';
import type { Deliverer, DeliveryContext, DeliveryIssue } from '../deliver';
import { FILE_LINK_DAYS } from '../links';
import { numbered, stepSentences, stepTexts } from '../steps';
import * as slack from '../vendors/slack';
import { facts, filesToSend, mapped, needs, plainHttp, title } from './common';

/**
 * Slack's escaping of `&`, `<` and `>`: without it `<!channel>` and `<!here>` notify everyone and
 * `<https://evil|Reset your password>` shows as a link. Every visitor value in a mrkdwn text and in the
 * message's top-level `text` (what notifications show) goes through it; plain_text (the header) is
 * never parsed.
 */
export const mrkdwn = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The message's top-level `text`: the fallback notifications and screen readers show, escaped as well. */
export const slackText = (issue: DeliveryIssue) => mrkdwn(title(issue));

/** The lines that fit whole within a section's 3,000 characters (with room for its heading). */
function whole(lines: string[]): string[] {
  const out: string[] = [];
  let room = 2800;
  for (const line of lines) {
    if (line.length + 1 > room) break;
    out.push(line);
    room -= line.length + 1;
  }
  return out;
}

export function slackBlocks(ctx: DeliveryContext) {
  const links = whole(
    [...ctx.screenshots, ...ctx.files].map(
      (l) => `• <${l.url.replace(/[<>|]/g, encodeURIComponent)}|${mrkdwn(l.label).replace(/\|/g, '¦')}>`,
    ),
  );
  const t = stepTexts();
  // The labels escaped as the description is: `<!here>` or `<https://…|…>` in a label stays text.
  // When they do not all fit, the last ones (closest to the report) are kept, with their own numbers.
  const steps = whole(numbered(stepSentences(ctx.issue, { text: mrkdwn })).reverse()).reverse();
  const fields = facts(ctx.issue)
    .slice(0, 10)
    .map(([k, v]) => ({ type: 'mrkdwn', text: `*${mrkdwn(k)}*\n${mrkdwn(v).slice(0, 1900)}` }));
  return [
    { type: 'header', text: { type: 'plain_text', text: title(ctx.issue).slice(0, 150) } },
    {
      type: 'section',
      text: { type: 'mrkdwn', text: mrkdwn(ctx.issue.msg || '_No description_').slice(0, 2900) },
    },
    ...(fields.length ? [{ type: 'section', fields }] : []),
    ...(steps.length
      ? [{ type: 'section', text: { type: 'mrkdwn', text: `*${t.heading}*\n${steps.join('\n')}` } }]
      : []),
    ...(links.length
      ? [
          {
            type: 'section',
            text: {
              type: 'mrkdwn',
              text: `*Files* (links valid ${FILE_LINK_DAYS} days)\n${links.join('\n')}`,
            },
          },
        ]
      : []),
    {
      type: 'actions',
      elements: [
        { type: 'button', text: { type: 'plain_text', text: 'Open in Snag' }, url: ctx.issueUrl },
        ...(ctx.replay
          ? [{ type: 'button', text: { type: 'plain_text', text: t.watch }, url: ctx.replay.url }]
          : []),
      ],
    },
  ];
}

export const deliverSlack: Deliverer<'slack'> = (ctx) =>
  mapped(async () => {
    const token = ctx.integration.oauth?.accessToken;
    if (!token) needs('Slack', 'authorise Slack');
    const channel = ctx.integration.data.id;
    if (!channel) needs('Slack', 'choose a channel');
    const cfg = { apiUrl: getConfig().SLACK_API_URL };
    if (ctx.vendorId?.endsWith('#files')) return { vendorId: ctx.vendorId };
    let posted = ctx.vendorId;
    let url: string | undefined;
    if (!posted) {
      const ts = await slack.postMessage(plainHttp, cfg, token as string, {
        channel,
        text: slackText(ctx.issue),
        blocks: slackBlocks(ctx),
      });
      posted = `${channel}/${ts}`;
      // The message's link is a convenience: without it (Slack refused, or was slow) the post still counts.
      url = await slack
        .getPermalink(plainHttp, cfg, token as string, { channel, ts })
        .catch((err: unknown) => {
          ctx.log.warn('no permalink for the Slack message', { err });
          return undefined;
        });
      await ctx.recordVendorId(posted, url);
    }
    const [postedChannel, ts] = posted.split('/') as [string, string];
    const images = (await filesToSend(ctx, 'screenshots')).filter((f) => f.type.startsWith('image/'));
    if (images.length === 0) return { vendorId: posted, ...(url ? { url } : {}) };
    await slack.uploadFiles(plainHttp, cfg, token as string, images, {
      channel: postedChannel,
      threadTs: ts,
    });
    return { vendorId: `${posted}#files`, ...(url ? { url } : {}) };
  });
