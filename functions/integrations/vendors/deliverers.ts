/**
 * The GitLab, Jira, Slack and Asana deliverers (functions/integrations/deliver.ts contract), registered in
 * functions/consumers/delivery.ts. Each is idempotent (docs/decisions.md "Vendor deliveries"):
 * - GitLab: uploads the screenshots, then creates the issue embedding them; one create, so a recorded
 *   issue number ends a retry at once (uploads of an attempt that failed before the create are orphans).
 * - Jira and Asana: create, record the id at once, then attach; a retry with a recorded id attaches only
 *   the names the issue or task does not have yet.
 * - Slack: posts the message, records `<channel>/<ts>`, then shares the screenshots in its thread and
 *   records `<channel>/<ts>#files`; a retry continues from whichever it finds.
 * Vendor failures map to `PermanentFailure` (with the user-visible reason) or a retryable error.
 */
import { getConfig } from '#runtime/config';
import { getSecrets } from '#runtime/secrets';
import { nowMs } from '#runtime/time';
import type { Deliverer, DeliveryContext, DeliveryIssue, DeliveryLink } from '../deliver';
import { PermanentFailure } from '../deliver';
import { type OAuthTokens, storeOAuthTokens } from '../integration';
import { FILE_LINK_DAYS } from '../links';
import * as asana from './asana';
import * as gitlab from './gitlab';
import { type GuardedFetch, guardedHttp, type Http, isVendorError, type VendorFile } from './http';
import * as jira from './jira';
import * as slack from './slack';

/** Screenshots uploaded per delivery, and the largest file sent to a vendor (others are linked). */
export const MAX_UPLOADS = 10;
export const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;

const plainHttp: Http = (url, init) => fetch(url, init);

/** Vendor errors as the contract wants them: permanent ones with their reason, the rest rethrown. */
async function mapped<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isVendorError(err) && err.permanent) throw new PermanentFailure(err.reason, { cause: err });
    throw err;
  }
}

function title(issue: DeliveryIssue): string {
  const t = (issue.title || issue.msg.split('\n')[0] || '').trim();
  return `#${issue.number} ${t || 'Feedback'}`.slice(0, 250);
}

function facts(issue: DeliveryIssue): [string, string][] {
  const d = issue.data;
  const out: [string, string][] = [];
  if (d.href) out.push(['Page', d.href]);
  if (d.username) out.push(['Reporter', d.username]);
  const browser = [d.browser, d.browserVersion].filter(Boolean).join(' ');
  const os = [d.os, d.osVersion].filter(Boolean).join(' ');
  const device = [browser, os, d.deviceType, d.screenResolution].filter(Boolean).join(', ');
  if (device) out.push(['Device', device]);
  for (const f of d.customFields ?? []) out.push([f.name, f.value]);
  return out;
}

/** Screenshots carry their kind (png, webm, mp4); files a MIME type. */
const kinds: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  webm: 'video/webm',
  mp4: 'video/mp4',
};
export const mimeOf = (type: string) =>
  type.includes('/') ? type : (kinds[type] ?? 'application/octet-stream');

/** The uploads of a delivery: images among the screenshots first, then files, within the caps. */
async function filesToSend(ctx: DeliveryContext, which: 'screenshots' | 'all'): Promise<VendorFile[]> {
  const links: DeliveryLink[] = which === 'all' ? [...ctx.screenshots, ...ctx.files] : ctx.screenshots;
  const out: VendorFile[] = [];
  for (const link of links) {
    if (out.length >= MAX_UPLOADS) break;
    if (link.size > MAX_UPLOAD_BYTES) continue;
    out.push({
      name: link.label,
      type: mimeOf(link.type),
      data: await ctx.readObject(link.name),
    });
  }
  return out;
}

const needs = (vendor: string, what: string): never => {
  throw new PermanentFailure(`${vendor} is not set up: ${what}`);
};

// --- GitLab ----------------------------------------------------------------------------------------

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
const gitlabLine = (s: string) => noMention(md(s.replace(/\s*[\r\n]+\s*/g, ' ')));
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
    return { vendorId: String(created.iid) };
  });

// --- Jira ------------------------------------------------------------------------------------------

export function jiraDescription(ctx: DeliveryContext) {
  const { adf } = jira;
  const content: jira.AdfNode[] = [];
  for (const para of (ctx.issue.msg || 'No description').split(/\n{2,}/)) {
    content.push(adf.paragraph(adf.text(para)));
  }
  const list = facts(ctx.issue).map(([k, v]) => [adf.strong(`${k}: `), adf.text(v)]);
  if (list.length) content.push(adf.bullets(list));
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
      await ctx.recordVendorId(issueKey);
    } else {
      attached = await jira.attachedNames(http, auth, issueKey);
    }
    for (const file of await filesToSend(ctx, 'all')) {
      if (!attached.has(file.name)) await jira.attach(http, auth, issueKey, file);
    }
    return { vendorId: issueKey };
  });

// --- Slack -----------------------------------------------------------------------------------------

/**
 * Slack's escaping of `&`, `<` and `>`: without it `<!channel>` and `<!here>` notify everyone and
 * `<https://evil|Reset your password>` shows as a link. Every visitor value in a mrkdwn text and in the
 * message's top-level `text` (what notifications show) goes through it; plain_text (the header) is
 * never parsed.
 */
export const mrkdwn = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The message's top-level `text`: the fallback notifications and screen readers show, escaped as well. */
export const slackText = (issue: DeliveryIssue) => mrkdwn(title(issue));

export function slackBlocks(ctx: DeliveryContext) {
  // Whole links only, within a section's 3,000 characters.
  const links: string[] = [];
  let room = 2800;
  for (const l of [...ctx.screenshots, ...ctx.files]) {
    const line = `• <${l.url.replace(/[<>|]/g, encodeURIComponent)}|${mrkdwn(l.label).replace(/\|/g, '¦')}>`;
    if (line.length + 1 > room) break;
    links.push(line);
    room -= line.length + 1;
  }
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
      elements: [{ type: 'button', text: { type: 'plain_text', text: 'Open in Snag' }, url: ctx.issueUrl }],
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
    if (!posted) {
      const ts = await slack.postMessage(plainHttp, cfg, token as string, {
        channel,
        text: slackText(ctx.issue),
        blocks: slackBlocks(ctx),
      });
      posted = `${channel}/${ts}`;
      await ctx.recordVendorId(posted);
    }
    const [postedChannel, ts] = posted.split('/') as [string, string];
    const images = (await filesToSend(ctx, 'screenshots')).filter((f) => f.type.startsWith('image/'));
    if (images.length === 0) return { vendorId: posted };
    await slack.uploadFiles(plainHttp, cfg, token as string, images, {
      channel: postedChannel,
      threadTs: ts,
    });
    return { vendorId: `${posted}#files` };
  });

// --- Asana -----------------------------------------------------------------------------------------

const html = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Asana rich text: `<body>` with the tags Asana accepts (strong, a, ul/li). */
export function asanaNotes(ctx: DeliveryContext): string {
  const parts = [html(ctx.issue.msg || 'No description'), ''];
  const items = facts(ctx.issue).map(([k, v]) => `<li><strong>${html(k)}:</strong> ${html(v)}</li>`);
  if (items.length) parts.push(`<ul>${items.join('')}</ul>`);
  parts.push(`<a href="${html(ctx.issueUrl)}">Open in Snag</a>`);
  return `<body>${parts.join('\n')}</body>`;
}

async function asanaClient() {
  const c = getConfig();
  const secret = (await getSecrets()).ASANA_CLIENT_SECRET;
  if (!c.ASANA_CLIENT_ID || !secret) return undefined;
  return { id: c.ASANA_CLIENT_ID, secret };
}

export const asanaConfig = () => ({
  apiUrl: getConfig().ASANA_API_URL,
  oauthUrl: getConfig().ASANA_OAUTH_URL,
});

/**
 * A usable Asana access token: refreshed (and stored) when it is about to expire, or when `force` (after a
 * 401). Without a refresh token or client credentials, the stored one.
 */
export async function asanaAccess(
  projectId: string,
  oauth: OAuthTokens,
  force = false,
): Promise<OAuthTokens> {
  const now = nowMs();
  if (!oauth.refreshToken || !(force || asana.needsRefresh(oauth, now))) return oauth;
  const client = await asanaClient();
  if (!client) return oauth;
  const fresh = await asana.refresh(plainHttp, asanaConfig(), client, oauth.refreshToken, now);
  const next: OAuthTokens = { ...oauth, ...fresh };
  await storeOAuthTokens(projectId, 'asana', next);
  return next;
}

/** Runs an Asana call, refreshing the token once on a 401. */
export async function withAsanaToken<T>(
  projectId: string,
  oauth: OAuthTokens,
  work: (accessToken: string) => Promise<T>,
): Promise<T> {
  let tokens = await asanaAccess(projectId, oauth);
  try {
    return await work(tokens.accessToken);
  } catch (err) {
    if (!(isVendorError(err) && err.details.status === 401 && tokens.refreshToken)) throw err;
    tokens = await asanaAccess(projectId, tokens, true);
    return work(tokens.accessToken);
  }
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
    return withAsanaToken(ctx.project.id, oauth as OAuthTokens, async (token) => {
      let attached = new Set<string>();
      if (!task) {
        task = await asana.createTask(plainHttp, cfg, token, {
          projectId: projectGid,
          name: title(ctx.issue),
          htmlNotes: asanaNotes(ctx),
        });
        await ctx.recordVendorId(task);
      } else {
        attached = await asana.attachmentNames(plainHttp, cfg, token, task);
      }
      for (const file of await filesToSend(ctx, 'all')) {
        if (!attached.has(file.name)) await asana.attach(plainHttp, cfg, token, task, file);
      }
      return { vendorId: task };
    });
  });

/** The four vendor deliverers, for functions/consumers/delivery.ts. */
export const vendorDeliverersBuiltIn = {
  gitlab: deliverGitlab,
  jira: deliverJira,
  slack: deliverSlack,
  asana: deliverAsana,
};
