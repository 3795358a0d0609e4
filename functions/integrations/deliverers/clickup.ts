/**
 * The ClickUp deliverer (issue 36): one task per Snag issue in the chosen list, its description in
 * Markdown (`markdown_content`), the screenshots attached as files. No idempotency key exists on ClickUp's
 * create, so the task's id is recorded as soon as ClickUp answers it; a retry that has it only attaches
 * what the task lacks (by title), and one after an unknown outcome asks before Sync (the catalogue's
 * `unknownOutcome: 'ask'`).
 */
import { getConfig } from '#runtime/config';
import type { Deliverer, DeliveryContext, DeliveryIssue } from '../deliver';
import { FILE_LINK_DAYS } from '../links';
import * as clickup from '../vendors/clickup';
import { facts, filesToSend, mapped, markdownSteps, needs, plainHttp, title } from './common';

/**
 * Invisible format characters (zero-width spaces and joiners, bidi overrides, the BOM…): a visitor could
 * hide a mention or a link's real target behind them; outside code they are dropped.
 */
const invisible = /[\p{Cf}]/gu;
/** A WORD JOINER after each `@`: reads the same, matches no ClickUp mention (`@name`, `@everyone`). */
const noMention = (s: string) => s.replace(/@/g, '@\u2060');

/**
 * ClickUp renders a task's Markdown description: links and images, `@` mentions, HTML-ish entities. Visitor
 * text therefore goes where ClickUp parses none of it (docs/decisions.md "Visitor text in customers'
 * tools", CU-1): the message in a fenced code block whose fence is longer than any backtick run in it (so
 * the text cannot close it), one-line values in code spans that they cannot close, and link texts with
 * every Markdown character (and `&`, so no entity decodes to `@` or `<`) escaped, invisible characters
 * dropped, and a WORD JOINER after `@`.
 */
export function clickupFenced(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}text\n${text.replace(/\r\n?/g, '\n')}\n${fence}`;
}

/** A one-line code span the value cannot close (CommonMark: a longer backtick run, padded). */
export function clickupCode(value: string): string {
  const line = value.replace(/\s*[\r\n]+\s*/g, ' ');
  const longest = Math.max(0, ...(line.match(/`+/g) ?? []).map((run) => run.length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks} ${line} ${ticks}`;
}

/** One line of plain text outside code (a link's text, a synced comment's author): escaped, no mention. */
export const clickupText = (s: string) =>
  noMention(
    s
      .replace(invisible, '')
      .replace(/\s*[\r\n]+\s*/g, ' ')
      .replace(/([\\`*_{}[\]()<>#|!~&])/g, '\\$1'),
  );

/** The task's name: ClickUp shows it as plain text; no mention, no invisible characters. */
export const clickupTaskName = (issue: DeliveryIssue) =>
  noMention(title(issue).replace(invisible, '')).slice(0, 250);

/** Plain text ClickUp stores as a comment (`comment_text`): no mention, no invisible characters. */
export const clickupPlain = (s: string) => noMention(s.replace(invisible, ''));

export function clickupDescription(ctx: DeliveryContext): string {
  const lines = [ctx.issue.msg ? clickupFenced(ctx.issue.msg) : '_No description_', ''];
  for (const [k, v] of facts(ctx.issue)) lines.push(`- **${clickupText(k)}:** ${clickupCode(v)}`);
  lines.push(...markdownSteps(ctx, { code: clickupCode }, FILE_LINK_DAYS));
  const linked = [...ctx.screenshots, ...ctx.files];
  if (linked.length) {
    lines.push('', `**Screenshots and files** (links valid ${FILE_LINK_DAYS} days; screenshots attached):`);
    for (const f of linked) lines.push(`- [${clickupText(f.label)}](${f.url})`);
  }
  lines.push('', `[Open in Snag](${ctx.issueUrl})`);
  return lines.join('\n');
}

export const deliverClickup: Deliverer<'clickup'> = (ctx) =>
  mapped(async () => {
    const { key, id } = ctx.integration.data;
    if (!key) needs('ClickUp', 'authorise it with a personal API token');
    const choice = clickup.parseListChoice(id);
    if (!choice) needs('ClickUp', 'choose a list');
    const { listId } = choice as NonNullable<typeof choice>;
    const auth = clickup.clickupAuth(getConfig().CLICKUP_API_URL, key);
    let taskId = ctx.vendorId;
    let url: string | undefined;
    let attached = new Set<string>();
    if (!taskId) {
      const task = await clickup.createTask(plainHttp, auth, listId, {
        name: clickupTaskName(ctx.issue),
        markdown: clickupDescription(ctx),
      });
      taskId = task.id;
      url = task.url;
      // Recorded before the uploads: a retry after a failed upload continues this task, never makes another.
      await ctx.recordVendorId(task.id, task.url);
    } else {
      const task = await clickup.getTask(plainHttp, auth, taskId);
      url = task.url;
      attached = new Set((task.attachments ?? []).map((a) => a.title ?? ''));
    }
    for (const file of await filesToSend(ctx, 'screenshots')) {
      if (attached.has(file.name)) continue;
      await clickup.attachFile(plainHttp, auth, taskId, file);
    }
    return { vendorId: taskId, ...(url ? { url } : {}) };
  });
