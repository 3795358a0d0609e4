/**
 * The Asana deliverer: creates the task, records its gid at once, then attaches; a retry with a recorded
 * gid attaches only the names the task does not have yet. The token refresh is the Asana vendor module's.
 */

import type { Deliverer, DeliveryContext } from '../deliver';
import type { OAuthTokens } from '../integration';
import { FILE_LINK_DAYS } from '../links';
import { replayNote, stepSentences, stepTexts } from '../steps';
import * as asana from '../vendors/asana';
import { asanaConfig, withAsanaToken } from '../vendors/asana';
import { facts, filesToSend, mapped, needs, plainHttp, title } from './common';

const html = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Asana rich text: `<body>` with the tags Asana accepts (strong, a, ul/ol/li). */
export function asanaNotes(ctx: DeliveryContext): string {
  const parts = [html(ctx.issue.msg || 'No description'), ''];
  const items = facts(ctx.issue).map(([k, v]) => `<li><strong>${html(k)}:</strong> ${html(v)}</li>`);
  if (items.length) parts.push(`<ul>${items.join('')}</ul>`);
  const t = stepTexts();
  const steps = stepSentences(ctx.issue, { text: html }).map((s) => `<li>${s}</li>`);
  if (steps.length) parts.push(`<strong>${html(t.heading)}</strong>`, `<ol>${steps.join('')}</ol>`);
  if (ctx.replay) {
    parts.push(
      `<a href="${html(ctx.replay.url)}">${html(t.watch)}</a>: ${html(replayNote(ctx.replay, FILE_LINK_DAYS))}`,
    );
  }
  parts.push(`<a href="${html(ctx.issueUrl)}">Open in Snag</a>`);
  return `<body>${parts.join('\n')}</body>`;
}

export const deliverAsana: Deliverer<'asana'> = (ctx) =>
  mapped(async () => {
    const oauth = ctx.integration.oauth;
    if (!oauth?.accessToken) needs('Asana', 'authorise Asana');
    const projectGid = ctx.integration.data.id;
    if (!projectGid) needs('Asana', 'choose a project');
    const cfg = asanaConfig();
    // Outside the call: a 401 mid-way retries it with the task already created, never creating two.
    let task = ctx.vendorId;
    let url: string | undefined;
    return withAsanaToken(ctx.project.id, oauth as OAuthTokens, async (token) => {
      let attached = new Set<string>();
      if (!task) {
        const created = await asana.createTask(plainHttp, cfg, token, {
          projectId: projectGid,
          name: title(ctx.issue),
          htmlNotes: asanaNotes(ctx),
        });
        task = created.gid;
        url = created.url;
        await ctx.recordVendorId(task, url);
      } else {
        attached = await asana.attachmentNames(plainHttp, cfg, token, task);
      }
      for (const file of await filesToSend(ctx, 'all')) {
        if (!attached.has(file.name)) await asana.attach(plainHttp, cfg, token, task, file);
      }
      return { vendorId: task, ...(url ? { url } : {}) };
    });
  });
