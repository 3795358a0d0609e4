/**
 * The GitLab deliverer: uploads the screenshots, then creates the issue embedding them; one create, so a
 * recorded issue number ends a retry at once (uploads of an attempt that failed before the create are orphans).
 */
import { getConfig } from '#runtime/config';
import type { Deliverer, DeliveryContext, DeliveryIssue } from '../deliver';
import { FILE_LINK_DAYS } from '../links';
import * as gitlab from '../vendors/gitlab';
import { type GuardedFetch, guardedHttp } from '../vendors/http';
import { facts, filesToSend, mapped, markdownSteps, needs, title } from './common';

const md = (s: string) => s.replace(/([\\`*_{}[\]<>#|])/g, '\\$1');

/**
 * GitLab acts on what a description says, with the customer's token: a line starting with `/close`,
 * `/label ~x` or `/assign @user` is a quick action run on save, and `@all` or `@user` notifies people.
 * Visitor text therefore never reaches GitLab where either works (docs/decisions.md "Visitor text in
 * customers' tools"): the description goes into a fenced code block (GitLab runs no quick action and
 * resolves no mention inside one; the fence is longer than any run of backticks in the text, so the text
 * cannot close it), and single-line values (title, facts, file names) have line breaks folded and a
 * WORD JOINER after each `@`, which reads the same but matches no user reference.
 */
const noMention = (s: string) => s.replace(/@/g, '@\u2060');
export const gitlabLine = (s: string) => noMention(md(s.replace(/\s*[\r\n]+\s*/g, ' ')));
export function gitlabFenced(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}text\n${text.replace(/\r\n?/g, '\n')}\n${fence}`;
}
/** The issue's title for GitLab: no mentions (quick actions do not run in titles). */
export const gitlabTitle = (issue: DeliveryIssue) => noMention(title(issue)).slice(0, 255);

export function gitlabDescription(ctx: DeliveryContext, embeds: string[]): string {
  const lines = [ctx.issue.msg ? gitlabFenced(ctx.issue.msg) : '_No description_', ''];
  for (const [k, v] of facts(ctx.issue)) lines.push(`- **${gitlabLine(k)}:** ${gitlabLine(v)}`);
  lines.push(...markdownSteps(ctx, { text: gitlabLine }, FILE_LINK_DAYS));
  if (embeds.length) lines.push('', ...embeds);
  const linked = ctx.files.map((f) => `- [${gitlabLine(f.label)}](${f.url})`);
  if (linked.length) lines.push('', `**Files** (links valid ${FILE_LINK_DAYS} days):`, ...linked);
  lines.push('', `[Open in Snag](${ctx.issueUrl})`);
  return lines.join('\n');
}

export const deliverGitlab: Deliverer<'gitlab'> = (ctx) =>
  mapped(async () => {
    if (ctx.vendorId) return { vendorId: ctx.vendorId };
    const { host, key, id } = ctx.integration.data;
    if (!key) needs('GitLab', 'authorise it with a personal access token');
    if (!id) needs('GitLab', 'choose a project');
    const auth = { base: gitlab.gitlabBase(host, getConfig().GITLAB_URL), token: key };
    const http = guardedHttp(ctx.http as GuardedFetch);
    const embeds: string[] = [];
    for (const file of await filesToSend(ctx, 'screenshots')) {
      embeds.push(await gitlab.uploadFile(http, auth, id, file));
    }
    const created = await gitlab.createIssue(http, auth, id, {
      title: gitlabTitle(ctx.issue),
      description: gitlabDescription(ctx, embeds),
    });
    return { vendorId: String(created.iid), ...(created.url ? { url: created.url } : {}) };
  });
