/**
 * The Azure DevOps Boards deliverer: uploads the screenshots as attachments, then creates the work item
 * (the chosen type, Bug by default) with ONE JSON Patch that sets the title and the HTML description and
 * links the attachments (`AttachedFile`) and the Snag issue (`Hyperlink`). One create, so the recorded
 * work item id ends a retry at once (uploads of an attempt that failed before the create are orphans, as
 * GitLab's are); the catalogue's `unknownOutcome: 'ask'` covers an attempt whose create may have landed.
 *
 * Rich-text fields hold HTML (README "Azure DevOps work items"): the type's own description field is
 * used, Repro Steps where the type has it (a Bug of the Agile, Scrum and CMMI processes), else
 * Description.
 */
import type { Deliverer, DeliveryContext } from '../deliver';
import { FILE_LINK_DAYS } from '../links';
import { replayNote, stepSentences, stepTexts } from '../steps';
import * as azure from '../vendors/azure';
import { type GuardedFetch, guardedHttp } from '../vendors/http';
import { facts, filesToSend, mapped, needs, title } from './common';

/**
 * Invisible and direction-changing characters a visitor could use to hide or disguise text (zero-width
 * spaces and joiners, bidi overrides and isolates, the BOM): dropped before anything else.
 */
const hiddenChars = /[\u00AD\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF]/g;
const WORD_JOINER = '\u2060';

/**
 * Visitor text as inert HTML for Azure DevOps (docs/decisions.md "Visitor text in customers' tools"):
 * every markup character escaped, so it can make no tag, link, image or script; a WORD JOINER after each
 * `@` and `#`, which reads the same but matches no `@mention` and no `#123` work item link (Azure links
 * those in discussions); and after `:` of a scheme (`https:\/\/`, `javascript:`), so no viewer
 * turns a typed address into a link.
 */
export function azureText(s: string): string {
  // The joiners first: the escapes below write `#` and `;` of their own, which must stay entities.
  return s
    .replace(hiddenChars, '')
    .replace(/([@#])/g, `$1${WORD_JOINER}`)
    .replace(/\b([a-z][a-z0-9+.-]*):/gi, `$1:${WORD_JOINER}`)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** Multi-line visitor text: inert, its lines kept as `<br>`. */
export const azureLines = (s: string) => azureText(s.replace(/\r\n?/g, '\n')).replace(/\n/g, '<br>');

/** An address Snag made (a signed link, the issue's page) as an attribute: escaped, http(s) only. */
const href = (url: string) => (/^https?:\/\//i.test(url) ? azureAttr(url) : '#');
const azureAttr = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The title: plain text in Azure (not HTML), at most 255 characters, without hidden characters. */
export const azureTitle = (ctx: Pick<DeliveryContext, 'issue'>) =>
  title(ctx.issue).replace(hiddenChars, '').replace(/\s+/g, ' ').slice(0, 255);

/** The description as HTML: the visitor's text, the facts, the steps, the screenshots, the links. */
export function azureDescription(
  ctx: Pick<DeliveryContext, 'issue' | 'issueUrl' | 'files' | 'screenshots' | 'replay'>,
  attachments: { name: string; url: string }[],
): string {
  const parts = [`<p>${ctx.issue.msg ? azureLines(ctx.issue.msg) : '<em>No description</em>'}</p>`];
  const items = facts(ctx.issue).map(
    ([k, val]) => `<li><strong>${azureText(k)}:</strong> ${azureText(val)}</li>`,
  );
  if (items.length) parts.push(`<ul>${items.join('')}</ul>`);
  const t = stepTexts();
  const steps = stepSentences(ctx.issue, { text: azureText }).map((s) => `<li>${s}</li>`);
  if (steps.length) parts.push(`<h3>${azureText(t.heading)}</h3><ol>${steps.join('')}</ol>`);
  if (ctx.replay) {
    parts.push(
      `<p><a href="${href(ctx.replay.url)}">${azureText(t.watch)}</a>: ${azureText(replayNote(ctx.replay, FILE_LINK_DAYS))}</p>`,
    );
  }
  // The attachments are Azure's own (the API URL shows in its form); the signed links work for everyone.
  for (const a of attachments)
    parts.push(`<p><img src="${href(a.url)}" alt="${azureAttr(azureText(a.name))}"></p>`);
  const linked = [...ctx.screenshots, ...ctx.files].map(
    (f) => `<li><a href="${href(f.url)}">${azureText(f.label)}</a></li>`,
  );
  if (linked.length)
    parts.push(
      `<p><strong>Files</strong> (links valid ${FILE_LINK_DAYS} days):</p><ul>${linked.join('')}</ul>`,
    );
  parts.push(`<p><a href="${href(ctx.issueUrl)}">Open in Snag</a></p>`);
  return parts.join('\n');
}

export const deliverAzure: Deliverer<'azure'> = (ctx) =>
  mapped(async () => {
    if (ctx.vendorId) return { vendorId: ctx.vendorId };
    const { host, key, id, issueId } = ctx.integration.data;
    if (!host || !key)
      needs('Azure DevOps', 'authorise it with the organisation URL and a personal access token');
    if (!id) needs('Azure DevOps', 'choose a project');
    const type = issueId || 'Bug';
    const auth = { base: azure.azureBase(host), token: key };
    const http = guardedHttp(ctx.http as GuardedFetch);
    const types = await azure.listTypes(http, auth, id);
    const chosen = types.find((t) => t.name === type);
    if (!chosen) needs('Azure DevOps', `choose a work item type the project has (${type} is not one)`);
    const attachments: { name: string; url: string }[] = [];
    for (const file of await filesToSend(ctx, 'screenshots')) {
      attachments.push({ name: file.name, url: await azure.uploadAttachment(http, auth, id, file) });
    }
    const ops: azure.PatchOp[] = [
      azure.field('System.Title', azureTitle(ctx)),
      azure.field((chosen as azure.WorkItemType).descriptionField, azureDescription(ctx, attachments)),
      ...attachments.map((a) => azure.relation('AttachedFile', a.url, `Screenshot from Snag: ${a.name}`)),
      // The attachment URLs are API URLs: the Snag issue is the link a person follows.
      azure.relation('Hyperlink', ctx.issueUrl, `Snag issue #${ctx.issue.number}`),
    ];
    const created = await azure.createWorkItem(http, auth, id, type, ops);
    return { vendorId: String(created.id), ...(created.url ? { url: created.url } : {}) };
  });
