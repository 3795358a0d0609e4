/**
 * The Linear deliverer: one issue per Snag issue, created with an id derived from the delivery, so that a
 * retry (even one whose earlier attempt's outcome is unknown) finds it by that id instead of creating a
 * second; the id, identifier and URL are recorded at once, then the links are attached (Linear keys
 * attachments by URL, so attaching again changes nothing). docs/decisions.md "Linear: repeatable creates".
 */
import { createHash } from 'node:crypto';
import { getConfig } from '#runtime/config';
import type { Deliverer, DeliveryContext } from '../deliver';
import { FILE_LINK_DAYS } from '../links';
import * as linear from '../vendors/linear';
import { facts, mapped, markdownSteps, needs, plainHttp, title } from './common';

/**
 * Linear reads the description as Markdown: `@name` mentions notify people, `ENG-123` links (and relates)
 * issues, and emphasis, links and images render. Visitor text therefore goes where Linear parses none of
 * it (docs/decisions.md "Visitor text in customers' tools"): the message in a fenced code block whose
 * fence is longer than any run of backticks or tildes in it, single-line values (facts) in code spans,
 * and file names (link texts) with Markdown escaped and a WORD JOINER after `@`.
 */
export function linearFenced(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}text\n${text.replace(/\r\n?/g, '\n')}\n${fence}`;
}

/** A one-line code span that the value cannot close (CommonMark: a longer backtick run, padded). */
export function linearCode(value: string): string {
  const line = value.replace(/\s*[\r\n]+\s*/g, ' ');
  const longest = Math.max(0, ...(line.match(/`+/g) ?? []).map((run) => run.length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks} ${line} ${ticks}`;
}

/** The title as Linear shows it: plain text, with a WORD JOINER after each `@` as GitLab's (no mention can form). */
export const linearTitle = (issue: DeliveryContext['issue']) => title(issue).replace(/@/g, '@\u2060');

/** One line of plain text outside code (a link's text, a synced comment's author): escaped, no mention. */
export const linkText = (s: string) =>
  s
    .replace(/\s*[\r\n]+\s*/g, ' ')
    .replace(/([\\`*_{}[\]()<>#|!~])/g, '\\$1')
    .replace(/@/g, '@\u2060');

export function linearDescription(ctx: DeliveryContext): string {
  const lines = [ctx.issue.msg ? linearFenced(ctx.issue.msg) : '_No description_', ''];
  for (const [k, v] of facts(ctx.issue)) lines.push(`- **${linkText(k)}:** ${linearCode(v)}`);
  // Labels in code spans, as the facts' values: `ENG-123` in plain text would link (and relate) an issue.
  lines.push(...markdownSteps(ctx, { code: linearCode }, FILE_LINK_DAYS));
  // Linear copies an image it finds on its own line into its storage, so the picture outlives the link.
  const images = ctx.screenshots.filter((s) => ['png', 'jpg'].includes(s.type));
  for (const s of images) lines.push('', `![${linkText(s.label)}](${s.url})`);
  const linked = [...ctx.screenshots.filter((s) => !images.includes(s)), ...ctx.files];
  if (linked.length) {
    lines.push('', `**Files** (links valid ${FILE_LINK_DAYS} days):`);
    for (const f of linked) lines.push(`- [${linkText(f.label)}](${f.url})`);
  }
  lines.push('', `[Open in Snag](${ctx.issueUrl})`);
  return lines.join('\n');
}

/**
 * The UUID v4 the issue is created with: a hash of the delivery (project, number) and the team, so every
 * attempt of this delivery to this team names the same issue, and another team gets another one.
 */
export function linearIssueId(deliveryId: string, teamId: string): string {
  const b = createHash('sha256').update(`snag:linear-issue:v1:${deliveryId}:${teamId}`).digest();
  b[6] = ((b[6] as number) & 0x0f) | 0x40;
  b[8] = ((b[8] as number) & 0x3f) | 0x80;
  const h = b.subarray(0, 16).toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

export const deliverLinear: Deliverer<'linear'> = (ctx) =>
  mapped(async () => {
    const { key, id: teamId } = ctx.integration.data;
    if (!key) needs('Linear', 'authorise it with an API key');
    if (!teamId) needs('Linear', 'choose a team');
    const auth = { url: getConfig().LINEAR_API_URL, key };
    let ref = ctx.vendorId ? linear.parseLinearVendorId(ctx.vendorId) : null;
    // A new delivery has no attachments yet; one that continues may have some (the signed links differ on
    // every attempt, so Linear's own key, the URL, would not spot them: the titles do).
    let attached = new Set<string>();
    if (!ref) {
      const id = linearIssueId(ctx.deliveryId, teamId);
      // Looked up first: an earlier attempt may have created it and died before recording it.
      const found = await linear.findIssue(plainHttp, auth, id);
      const made =
        found ??
        (await linear.createIssue(plainHttp, auth, {
          id,
          teamId,
          title: linearTitle(ctx.issue),
          description: linearDescription(ctx),
        }));
      ref = { id: made.id, identifier: made.identifier, url: made.url };
      await ctx.recordVendorId(linear.linearVendorId(ref), ref.url);
      if (found) attached = await linear.attachmentTitles(plainHttp, auth, ref.id);
    } else {
      attached = await linear.attachmentTitles(plainHttp, auth, ref.id);
    }
    for (const s of ctx.screenshots) {
      if (attached.has(s.label)) continue;
      await linear.createAttachment(plainHttp, auth, {
        issueId: ref.id,
        title: s.label,
        url: s.url,
        subtitle: `Screenshot in Snag (link valid ${FILE_LINK_DAYS} days)`,
      });
    }
    await linear.createAttachment(plainHttp, auth, {
      issueId: ref.id,
      title: `Snag issue #${ctx.issue.number}`,
      url: ctx.issueUrl,
      subtitle: 'The full report in Snag',
    });
    return { vendorId: linear.linearVendorId(ref), url: ref.url };
  });
