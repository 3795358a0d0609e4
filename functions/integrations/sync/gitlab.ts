/**
 * GitLab's adapter for the two-way sync (../shared/api-specs/README.md "GitLab webhooks", the excerpts
 * gitlab/openapi_v2.sync.EXCERPTS.yaml and webhook-example.*.json): `X-Gitlab-Token` is the secret itself;
 * `Issue Hook` with action close/reopen is a state change, `Note Hook` on an issue (not a system note) a
 * comment; the delivery id is `Idempotency-Key` (or `X-Gitlab-Event-UUID` from older senders). Only
 * deliveries about the integration's chosen project count. Write-back: `PUT …/issues/:iid {state_event}`,
 * `POST …/issues/:iid/notes`; registration: `POST /projects/:id/hooks` (issues and note events).
 */
import * as z from 'zod';
import { triageLimits } from '#contracts/triage';
import { getConfig } from '#runtime/config';
import { gitlabFenced, gitlabLine } from '../deliverers/gitlab';
import * as gitlab from '../vendors/gitlab';
import { header, MalformedDelivery, type TrackerAdapter, type TrackerContext } from './adapter';
import { verifyGitlabToken } from './verify';

const user = z.looseObject({ id: z.number(), name: z.string().optional(), username: z.string().optional() });
const issueHook = z.looseObject({
  object_kind: z.literal('issue'),
  user,
  project: z.looseObject({ id: z.number() }),
  object_attributes: z.looseObject({
    iid: z.number(),
    action: z.string().optional(),
    url: z.string().optional(),
  }),
});
const noteHook = z.looseObject({
  object_kind: z.literal('note'),
  user,
  project: z.looseObject({ id: z.number() }),
  object_attributes: z.looseObject({
    id: z.number(),
    note: z.string(),
    noteable_type: z.string(),
    action: z.string().optional(),
    system: z.boolean().nullable().optional(),
    url: z.string().optional(),
  }),
  issue: z.looseObject({ iid: z.number() }).optional(),
});

const auth = ({ integration }: TrackerContext<'gitlab'>) => ({
  base: gitlab.gitlabBase(integration.data.host, getConfig().GITLAB_URL),
  token: integration.data.key,
});
const nameOf = (u: z.infer<typeof user>) => u.name || u.username || `GitLab user ${u.id}`;

export const gitlabAdapter: TrackerAdapter<'gitlab'> = {
  vendor: 'gitlab',
  verify: (_raw, headers, secret) => verifyGitlabToken(header(headers, 'x-gitlab-token'), secret),
  parse(body, headers, integration) {
    const deliveryId = header(headers, 'idempotency-key') ?? header(headers, 'x-gitlab-event-uuid');
    const kind = (body as { object_kind?: unknown } | null)?.object_kind;
    if (!deliveryId || deliveryId.length > 200 || (kind !== 'issue' && kind !== 'note'))
      throw new MalformedDelivery('not a GitLab issue or note hook');
    if (kind === 'issue') {
      const hook = issueHook.safeParse(body);
      if (!hook.success) throw new MalformedDelivery('malformed Issue Hook');
      const { object_attributes: issue, project } = hook.data;
      if (String(project.id) !== integration.data.id) return null;
      if (issue.action !== 'close' && issue.action !== 'reopen') return null;
      return {
        deliveryId,
        kind: 'state',
        issue: String(issue.iid),
        ...(issue.url ? { url: issue.url.slice(0, 2000) } : {}),
        author: { id: String(hook.data.user.id), name: nameOf(hook.data.user).slice(0, 200) },
      };
    }
    const hook = noteHook.safeParse(body);
    if (!hook.success) throw new MalformedDelivery('malformed Note Hook');
    const { object_attributes: note, project, issue } = hook.data;
    if (String(project.id) !== integration.data.id) return null;
    // Notes on merge requests, commits and snippets, GitLab's own system notes, and edits are not comments.
    if (note.noteable_type !== 'Issue' || note.system || (note.action && note.action !== 'create'))
      return null;
    if (!issue) throw new MalformedDelivery('a Note Hook on an issue without its issue');
    return {
      deliveryId,
      kind: 'comment',
      issue: String(issue.iid),
      ...(note.url ? { url: note.url.replace(/#note_\d+$/, '').slice(0, 2000) } : {}),
      author: { id: String(hook.data.user.id), name: nameOf(hook.data.user).slice(0, 200) },
      comment: { id: String(note.id), body: note.note.slice(0, triageLimits.commentMax) },
    };
  },
  state: (ctx, issue) => gitlab.issueState(ctx.http, auth(ctx), ctx.integration.data.id, issue),
  async setState(ctx, issue, closed) {
    await gitlab.setIssueState(ctx.http, auth(ctx), ctx.integration.data.id, issue, closed);
    return true;
  },

  // The text in a fence, as the issue's description (deliverers/gitlab.ts): a reporter's public reply may
  // hold `/close` or `@all`, which GitLab would otherwise run or send with the client's token.
  comment: (ctx, issue, c) =>
    gitlab.createNote(
      ctx.http,
      auth(ctx),
      ctx.integration.data.id,
      issue,
      `**${gitlabLine(c.author)}** wrote in Snag:\n\n${gitlabFenced(c.body)}`,
    ),
  issueUrl: () => undefined,
  register: (ctx, hook) =>
    gitlab.createProjectHook(ctx.http, auth(ctx), ctx.integration.data.id, {
      url: hook.url,
      token: hook.secret,
    }),
  unregister: (ctx, hookId) => gitlab.deleteProjectHook(ctx.http, auth(ctx), ctx.integration.data.id, hookId),
  ready: (integration) => !!integration.data.key && !!integration.data.id,
};
