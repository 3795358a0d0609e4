/**
 * The trackers' hook verification schemes (functions/integrations/sync/verify.ts) against the vendors'
 * own test vectors and rules, and the GitLab and Jira adapters' reduction of their payload examples
 * (GitLab's own webhook examples, kept in test/fixtures/gitlab so that a clone alone runs the suite; the
 * Jira shape of README "Jira Cloud webhooks").
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  githubDataSchema,
  gitlabDataSchema,
  jiraDataSchema,
  linearDataSchema,
} from '#contracts/integrations';
import { trackerIssueId } from '#contracts/sync';
import { commentSchema, trackerCommentText, triageLimits } from '#contracts/triage';
import { MalformedDelivery } from '../../../functions/integrations/sync/adapter';
import { githubAdapter } from '../../../functions/integrations/sync/github';
import { gitlabAdapter } from '../../../functions/integrations/sync/gitlab';
import { jiraAdapter } from '../../../functions/integrations/sync/jira';
import { linearAdapter } from '../../../functions/integrations/sync/linear';
import {
  hubSignature,
  verifyGitlabToken,
  verifyHubSignature,
  verifyLinearSignature,
} from '../../../functions/integrations/sync/verify';
import { mayWriteBack } from '../../../functions/integrations/sync/writeback';

describe('hook verification', () => {
  it("GitHub's published test vector passes X-Hub-Signature-256; any other body or secret does not", () => {
    const header = 'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17';
    expect(verifyHubSignature(header, "It's a Secret to Everybody", 'Hello, World!')).toBe('ok');
    expect(verifyHubSignature(header, "It's a Secret to Everybody", 'Hello, World?')).toBe('forged');
    expect(verifyHubSignature(header, 'another secret', 'Hello, World!')).toBe('forged');
    expect(verifyHubSignature(undefined, 's', 'x')).toBe('forged');
    expect(verifyHubSignature('sha1=abc', 's', 'x')).toBe('forged');
    expect(hubSignature("It's a Secret to Everybody", 'Hello, World!')).toBe(header);
  });

  it('GitLab: the token equals the secret, nothing else', () => {
    expect(verifyGitlabToken('s3cret', 's3cret')).toBe('ok');
    expect(verifyGitlabToken('s3cret ', 's3cret')).toBe('forged');
    expect(verifyGitlabToken(undefined, 's3cret')).toBe('forged');
  });

  it('Linear: the plain hex HMAC, then webhookTimestamp within 60 s (stale beyond, refused without)', () => {
    const now = 1_790_000_000_000;
    const body = (ts?: number) => JSON.stringify({ action: 'update', type: 'Issue', webhookTimestamp: ts });
    const sign = (raw: string) => hubSignature('lin_wh_secret', raw).slice('sha256='.length);
    const fresh = body(now - 30_000);
    expect(verifyLinearSignature(sign(fresh), 'lin_wh_secret', fresh, now)).toBe('ok');
    const stale = body(now - 61_000);
    expect(verifyLinearSignature(sign(stale), 'lin_wh_secret', stale, now)).toBe('stale');
    const none = body();
    expect(verifyLinearSignature(sign(none), 'lin_wh_secret', none, now)).toBe('stale');
    expect(verifyLinearSignature(sign(fresh), 'another', fresh, now)).toBe('forged');
  });
});

const spec = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../fixtures/gitlab/${name}`, import.meta.url), 'utf8'));

describe('the GitLab adapter', () => {
  const data = (id: string) => gitlabDataSchema.parse({ key: 'glpat', id });
  const integration = (id: string) => ({
    name: 'gitlab' as const,
    active: 1 as const,
    authorized: 1 as const,
    data: data(id),
  });
  const headers = { 'idempotency-key': 'f0b5b0e0-0000-4000-8000-000000000001' };

  it("reduces GitLab's Note Hook example to a comment on its issue, by its user", () => {
    const note = spec('webhook-example.note-hook-issue.json');
    expect(gitlabAdapter.parse(note, headers, integration(String(note.project.id)))).toEqual({
      deliveryId: headers['idempotency-key'],
      kind: 'comment',
      issue: String(note.issue.iid),
      url: expect.stringContaining(`/issues/${note.issue.iid}`),
      author: { id: String(note.user.id), name: note.user.name },
      comment: { id: String(note.object_attributes.id), body: note.object_attributes.note },
    });
    // Another GitLab project's delivery is none of this integration's business.
    expect(gitlabAdapter.parse(note, headers, integration('999999'))).toBeNull();
  });

  it("takes the Issue Hook example's close/reopen as a state change and ignores open/update", () => {
    const hook = spec('webhook-example.issue-hook.json');
    const mine = integration(String(hook.project.id));
    expect(gitlabAdapter.parse(hook, headers, mine)).toBeNull(); // the example is action "open"
    hook.object_attributes.action = 'close';
    expect(gitlabAdapter.parse(hook, headers, mine)).toMatchObject({
      kind: 'state',
      issue: String(hook.object_attributes.iid),
    });
    expect(() => gitlabAdapter.parse(hook, {}, mine)).toThrow(MalformedDelivery);
    expect(() => gitlabAdapter.parse({ object_kind: 'issue' }, headers, mine)).toThrow(MalformedDelivery);
  });
});

describe('the Jira adapter', () => {
  const integration = {
    name: 'jira' as const,
    active: 1 as const,
    authorized: 1 as const,
    data: jiraDataSchema.parse({ host: 'https://acme.atlassian.net', username: 'me@acme.example', key: 'k' }),
  };
  it('a status change in the changelog is a state change; other updates are not', () => {
    const base = {
      timestamp: 1_790_000_000_000,
      webhookEvent: 'jira:issue_updated',
      user: { accountId: 'a1', displayName: 'Jane Doe' },
      issue: { id: '10002', key: 'WEB-7' },
    };
    expect(
      jiraAdapter.parse({ ...base, changelog: { items: [{ field: 'status' }] } }, {}, integration),
    ).toEqual({
      deliveryId: '1790000000000:jira:issue_updated:10002',
      kind: 'state',
      issue: 'WEB-7',
      url: 'https://acme.atlassian.net/browse/WEB-7',
      author: { id: 'a1', name: 'Jane Doe' },
    });
    expect(
      jiraAdapter.parse({ ...base, changelog: { items: [{ field: 'summary' }] } }, {}, integration),
    ).toBeNull();
  });
});

describe('the GitHub adapter', () => {
  const integration = {
    name: 'github' as const,
    active: 1 as const,
    authorized: 1 as const,
    data: githubDataSchema.parse({ key: 'github_pat', id: 'octo-org/shop' }),
  };
  const url = 'https://github.com/octo-org/shop/issues/7';
  const sender = { login: 'octo-human', id: 2002 };
  const base = { issue: { number: 7, html_url: url }, repository: { full_name: 'Octo-Org/Shop' }, sender };
  const h = (event: string) => ({ 'x-github-event': event, 'x-github-delivery': 'guid-1' });

  it('takes closed/reopened (and an edit that names the state) as a state change, keyed by the html_url', () => {
    for (const action of ['closed', 'reopened'])
      expect(githubAdapter.parse({ ...base, action }, h('issues'), integration)).toEqual({
        deliveryId: 'guid-1',
        kind: 'state',
        issue: url,
        url,
        author: { id: '2002', name: 'octo-human' },
      });
    expect(
      githubAdapter.parse(
        { ...base, action: 'edited', changes: { state: { from: 'open' } } },
        h('issues'),
        integration,
      )?.kind,
    ).toBe('state');
    expect(
      githubAdapter.parse(
        { ...base, action: 'edited', changes: { title: { from: 'x' } } },
        h('issues'),
        integration,
      ),
    ).toBeNull();
  });

  it('takes a created issue comment, not one on a pull request, another repository, or a ping', () => {
    const comment = { id: 99, body: 'Fixed', user: sender };
    expect(
      githubAdapter.parse({ ...base, action: 'created', comment }, h('issue_comment'), integration)?.comment,
    ).toEqual({ id: '99', body: 'Fixed' });
    const pr = { ...base, issue: { ...base.issue, pull_request: { url: 'x' } }, action: 'created', comment };
    expect(githubAdapter.parse(pr, h('issue_comment'), integration)).toBeNull();
    const other = { ...base, repository: { full_name: 'octo-org/other' }, action: 'closed' };
    expect(githubAdapter.parse(other, h('issues'), integration)).toBeNull();
    expect(githubAdapter.parse({ zen: 'Keep it simple' }, h('ping'), integration)).toBeNull();
    expect(() => githubAdapter.parse({ action: 'closed' }, h('issues'), integration)).toThrow(
      MalformedDelivery,
    );
    expect(() => githubAdapter.parse(base, { 'x-github-event': 'issues' }, integration)).toThrow(
      MalformedDelivery,
    );
  });
});

describe('the Linear adapter', () => {
  const integration = {
    name: 'linear' as const,
    active: 1 as const,
    authorized: 1 as const,
    data: linearDataSchema.parse({ key: 'lin_api', id: 'team-1' }),
  };
  const envelope = {
    webhookId: 'wh-1',
    webhookTimestamp: 1_790_000_000_000,
    actor: { id: 'u-9', name: 'Lin' },
  };

  it('a state change is an Issue update naming updatedFrom.stateId; the delivery id is webhookId+timestamp+data.id', () => {
    const body = {
      ...envelope,
      action: 'update',
      type: 'Issue',
      data: { id: 'uuid-1', teamId: 'team-1', url: 'https://linear.app/x/issue/ENG-1' },
      updatedFrom: { stateId: 's-0' },
    };
    expect(linearAdapter.parse(body, {}, integration)).toEqual({
      deliveryId: 'wh-1:1790000000000:uuid-1',
      kind: 'state',
      issue: 'uuid-1',
      url: 'https://linear.app/x/issue/ENG-1',
      author: { id: 'u-9', name: 'Lin' },
    });
    expect(linearAdapter.parse({ ...body, updatedFrom: { title: 'x' } }, {}, integration)).toBeNull();
    expect(
      linearAdapter.parse({ ...body, data: { ...body.data, teamId: 'team-2' } }, {}, integration),
    ).toBeNull();
  });

  it('a Comment create is a comment on its issue; the recorded id and the hook name the same issue', () => {
    const body = {
      ...envelope,
      action: 'create',
      type: 'Comment',
      data: { id: 'c-1', body: 'On it', issueId: 'uuid-1', user: { id: 'u-9', name: 'Lin' } },
    };
    expect(linearAdapter.parse(body, {}, integration)).toMatchObject({
      kind: 'comment',
      issue: 'uuid-1',
      comment: { id: 'c-1', body: 'On it' },
    });
    expect(() => linearAdapter.parse({ ...body, data: { id: 'c-1' } }, {}, integration)).toThrow(
      MalformedDelivery,
    );
    expect(trackerIssueId('linear', 'uuid-1 ENG-1 https://linear.app/x/issue/ENG-1')).toBe('uuid-1');
    expect(trackerIssueId('github', 'https://github.com/o/r/issues/1')).toBe(
      'https://github.com/o/r/issues/1',
    );
  });
});

describe('no echo', () => {
  it('never writes back a change that came from the same tracker, nor a status move within the open ones', () => {
    const at = '2026-11-28T05:00:00.000Z';
    const resolved = {
      type: 'issue.updated' as const,
      at,
      changes: { status: { from: 'new', to: 'resolved' } },
    };
    expect(mayWriteBack('gitlab', { ...resolved, actor: { kind: 'member', name: 'Ann' } })).toBe(true);
    expect(
      mayWriteBack('gitlab', {
        ...resolved,
        actor: { kind: 'tracker', vendor: 'gitlab', name: 'Jane on GitLab' },
      }),
    ).toBe(false);
    expect(
      mayWriteBack('jira', {
        ...resolved,
        actor: { kind: 'tracker', vendor: 'gitlab', name: 'Jane on GitLab' },
      }),
    ).toBe(true);
    const moved = { ...resolved, changes: { status: { from: 'new', to: 'in_progress' } } };
    expect(mayWriteBack('gitlab', { ...moved, actor: { kind: 'member', name: 'Ann' } })).toBe(false);
  });
});

describe('a tracker comment as it is stored', () => {
  // What every member comment refuses: a bidi override, a null byte, an ANSI escape, a zero width, a BOM,
  // a tag character; the line break and the emoji's ZWJ stay.
  const hostile =
    '\uFEFFFixed \u202Eexe.pdf\u202C in\u0000 2.3\u200B.1 \u001b[31mred\u001b[0m\n👩\u200D💻 done\u{E0041}';
  const clean = 'Fixed exe.pdf in 2.3.1 [31mred[0m\n👩\u200D💻 done';
  const headers = { 'idempotency-key': 'f0b5b0e0-0000-4000-8000-000000000002' };
  const base = <N extends 'gitlab' | 'jira' | 'github' | 'linear', D>(name: N, data: D) => ({
    name,
    active: 1 as const,
    authorized: 1 as const,
    data,
  });
  const parsed = {
    gitlab: () => {
      const note = spec('webhook-example.note-hook-issue.json');
      note.object_attributes.note = hostile;
      return gitlabAdapter.parse(
        note,
        headers,
        base('gitlab', gitlabDataSchema.parse({ key: 'glpat', id: String(note.project.id) })),
      );
    },
    jira: () =>
      jiraAdapter.parse(
        {
          timestamp: 1,
          webhookEvent: 'comment_created',
          issue: { id: '10002', key: 'WEB-7' },
          comment: { id: '5', body: hostile, author: { accountId: 'a1', displayName: 'Jane' } },
        },
        {},
        base('jira', jiraDataSchema.parse({ host: 'https://acme.atlassian.net', username: 'u', key: 'k' })),
      ),
    github: () =>
      githubAdapter.parse(
        {
          action: 'created',
          issue: { number: 7, html_url: 'https://github.com/o/r/issues/7' },
          repository: { full_name: 'o/r' },
          sender: { login: 'octo', id: 1 },
          comment: { id: 99, body: hostile, user: { login: 'octo', id: 1 } },
        },
        { 'x-github-event': 'issue_comment', 'x-github-delivery': 'g-1' },
        base('github', githubDataSchema.parse({ key: 'github_pat', id: 'o/r' })),
      ),
    linear: () =>
      linearAdapter.parse(
        {
          webhookId: 'wh-1',
          webhookTimestamp: 1,
          actor: { id: 'u-9', name: 'Lin' },
          action: 'create',
          type: 'Comment',
          data: { id: 'c-1', body: hostile, issueId: 'uuid-1', user: { id: 'u-9', name: 'Lin' } },
        },
        {},
        base('linear', linearDataSchema.parse({ key: 'lin_api', id: 'team-1' })),
      ),
  };

  it.each(Object.entries(parsed))('%s: the synced comment under the members’ text rule', (_vendor, parse) => {
    const body = parse()?.comment?.body ?? '';
    expect(body).toContain('\u202E');
    const stored = trackerCommentText(body);
    expect(stored).toBe(clean);
    expect(commentSchema.safeParse({ body: stored, visibility: 'internal' }).success).toBe(true);
  });

  it('nothing visible left is nothing to store; the length is the members’ limit', () => {
    expect(trackerCommentText('\u200B\u202E \u0000\n')).toBe('');
    expect(trackerCommentText('x'.repeat(9000))).toHaveLength(triageLimits.commentMax);
  });
});
