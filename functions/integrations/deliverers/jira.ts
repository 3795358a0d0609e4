/**
 * The Jira deliverer: creates the issue, records its key at once, then attaches; a retry with a recorded
 * key attaches only the names the issue does not have yet.
 */
import type { Deliverer, DeliveryContext } from '../deliver';
import { FILE_LINK_DAYS } from '../links';
import { replayNote, stepSentences, stepTexts } from '../steps';
import { type GuardedFetch, guardedHttp } from '../vendors/http';
import * as jira from '../vendors/jira';
import { facts, filesToSend, mapped, needs, title } from './common';

export function jiraDescription(ctx: DeliveryContext) {
  const { adf } = jira;
  const content: jira.AdfNode[] = [];
  for (const para of (ctx.issue.msg || 'No description').split(/\n{2,}/)) {
    content.push(adf.paragraph(adf.text(para)));
  }
  const list = facts(ctx.issue).map(([k, v]) => [adf.strong(`${k}: `), adf.text(v)]);
  if (list.length) content.push(adf.bullets(list));
  // Steps stay text nodes, as the description: ADF makes a mention, card or link only from its own nodes.
  const steps = stepSentences(ctx.issue, { text: (label) => label });
  const t = stepTexts();
  if (steps.length) content.push(adf.heading(3, t.heading), adf.ordered(steps.map((s) => [adf.text(s)])));
  if (ctx.replay) {
    content.push(
      adf.paragraph(
        adf.link(t.watch, ctx.replay.url),
        adf.text(`: ${replayNote(ctx.replay, FILE_LINK_DAYS)}`),
      ),
    );
  }
  if (ctx.files.length + ctx.screenshots.length > 0) {
    content.push(adf.paragraph(adf.text('Screenshots and files are attached.')));
  }
  content.push(adf.paragraph(adf.link('Open in Snag', ctx.issueUrl)));
  return adf.doc(content);
}

export const deliverJira: Deliverer<'jira'> = (ctx) =>
  mapped(async () => {
    const { host, username, key, id, issueId, customFields } = ctx.integration.data;
    if (!host || !username || !key) needs('Jira', 'authorise it with host, username and API token');
    if (!id || !issueId) needs('Jira', 'choose a project and an issue type');
    const auth = { base: jira.jiraBase(host), username, token: key };
    const http = guardedHttp(ctx.http as GuardedFetch);
    let issueKey = ctx.vendorId;
    let attached = new Set<string>();
    if (!issueKey) {
      const created = await jira.createIssue(http, auth, {
        projectId: id,
        issueTypeId: issueId,
        summary: title(ctx.issue),
        description: jiraDescription(ctx),
        fields: jira.extraFields(customFields),
      });
      issueKey = created.key;
      await ctx.recordVendorId(issueKey, jira.browseUrl(auth.base, issueKey));
    } else {
      attached = await jira.attachedNames(http, auth, issueKey);
    }
    for (const file of await filesToSend(ctx, 'all')) {
      if (!attached.has(file.name)) await jira.attach(http, auth, issueKey, file);
    }
    return { vendorId: issueKey, url: jira.browseUrl(auth.base, issueKey) };
  });
