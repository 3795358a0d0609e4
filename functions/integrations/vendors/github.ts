/**
 * GitHub REST (../shared/api-specs/github, README "Facts"): a fine-grained personal access token as
 * `Authorization: Bearer`, the media type and the API version pinned on every call, the token's
 * repositories (`GET /user/repos`), issues (create, read, close/reopen), comments and repository hooks.
 * The base is Snag's setting `GITHUB_API_URL` (default https://api.github.com; a GitHub Enterprise
 * Server's is `https://<host>/api/v3`), never a client's, so calls go through plain fetch as Slack's do.
 * Only `assignees` exists here: the singular `assignee` is gone from version 2026-03-10 on.
 */
import * as z from 'zod';
import { type Http, sendJson, VendorError } from './http';

export interface GithubAuth {
  /** The API base without a trailing slash (`https://api.github.com`). */
  base: string;
  token: string;
}

/** The API version the spec excerpt describes; GitHub answers by it, whatever it ships later. */
export const GITHUB_API_VERSION = '2022-11-28';

export const githubAuth = (apiUrl: string, token: string): GithubAuth => ({
  base: apiUrl.replace(/\/+$/, ''),
  token,
});

const headers = (auth: GithubAuth, json = false) => ({
  authorization: `Bearer ${auth.token}`,
  accept: 'application/vnd.github+json',
  'x-github-api-version': GITHUB_API_VERSION,
  ...(json ? { 'content-type': 'application/json' } : {}),
});

/** `owner/repo` as a path: each part encoded (the schema already refuses `..` and slashes inside). */
const repoPath = (repo: string) => {
  const [owner = '', name = ''] = repo.split('/');
  return `/repos/${encodeURIComponent(owner)}/${encodeURIComponent(name)}`;
};

const call = async (
  auth: GithubAuth,
  http: Http,
  path: string,
  init: { method?: string; body?: unknown },
  what: string,
) =>
  sendJson(
    'github',
    http,
    `${auth.base}${path}`,
    {
      method: init.method ?? 'GET',
      headers: headers(auth, init.body !== undefined),
      ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
    },
    what,
  );

const unexpected = (what: string) =>
  new VendorError('github', false, `GitHub answered an unexpected ${what}`);

const reposSchema = z.array(
  z.looseObject({
    full_name: z.string(),
    has_issues: z.boolean().optional(),
    archived: z.boolean().optional(),
  }),
);

export interface Named {
  id: string;
  name: string;
}

/** Pages of /user/repos read at most (100 each): 500 repositories, as GitLab's and Jira's lists. */
export const REPO_PAGES = 5;

/**
 * The repositories the token can reach, recently pushed first, as `owner/repo` (id and name alike):
 * pages of 100 until a short page, at most `REPO_PAGES`. Archived ones and ones with issues switched off
 * are left out: creating an issue there fails (403 or 410).
 */
export async function listRepos(http: Http, auth: GithubAuth): Promise<Named[]> {
  const out: Named[] = [];
  for (let page = 1; page <= REPO_PAGES; page++) {
    const body = await call(
      auth,
      http,
      `/user/repos?sort=pushed&per_page=100&page=${page}`,
      {},
      'repositories',
    );
    const parsed = reposSchema.safeParse(body);
    if (!parsed.success) throw unexpected('repository list');
    for (const r of parsed.data) {
      if (r.archived === true || r.has_issues === false) continue;
      out.push({ id: r.full_name, name: r.full_name });
    }
    if (parsed.data.length < 100) break;
  }
  return out;
}

const issueSchema = z.looseObject({
  id: z.number(),
  number: z.number().int().positive(),
  html_url: z.string(),
  state: z.enum(['open', 'closed']),
  state_reason: z.string().nullable().optional(),
  title: z.string(),
  body: z.string().nullable().optional(),
});
export type GithubIssue = z.infer<typeof issueSchema>;

const parseIssue = (body: unknown) => {
  const parsed = issueSchema.safeParse(body);
  if (!parsed.success) throw unexpected('issue');
  return parsed.data;
};

/** GitHub caps an issue's title at 256 characters and its body at 65,536. */
export const TITLE_MAX = 256;
export const BODY_MAX = 65_536;

/**
 * Creates an issue in `repo` (`owner/repo`). 410 means issues are switched off in the repository: a
 * permanent failure with that reason, not "check the project".
 */
export async function createIssue(
  http: Http,
  auth: GithubAuth,
  repo: string,
  issue: { title: string; body: string; labels?: string[]; assignees?: string[] },
): Promise<GithubIssue> {
  try {
    return parseIssue(
      await call(
        auth,
        http,
        `${repoPath(repo)}/issues`,
        {
          method: 'POST',
          body: {
            title: issue.title.slice(0, TITLE_MAX),
            body: issue.body.slice(0, BODY_MAX),
            ...(issue.labels?.length ? { labels: issue.labels } : {}),
            ...(issue.assignees?.length ? { assignees: issue.assignees } : {}),
          },
        },
        'repository',
      ),
    );
  } catch (err) {
    if (err instanceof VendorError && err.details.status === 410)
      throw new VendorError('github', true, `GitHub issues are switched off in ${repo} (410)`, err.details);
    throw err;
  }
}

/** Reads an issue (the two-way sync re-reads one before acting on a hook; deliveries arrive out of order). */
export async function getIssue(http: Http, auth: GithubAuth, repo: string, number: number) {
  return parseIssue(await call(auth, http, `${repoPath(repo)}/issues/${number}`, {}, 'issue'));
}

/** Closes (as completed or not planned) or reopens an issue. */
export async function setIssueState(
  http: Http,
  auth: GithubAuth,
  repo: string,
  number: number,
  change: { state: 'closed'; reason?: 'completed' | 'not_planned' } | { state: 'open' },
) {
  const body =
    change.state === 'closed'
      ? { state: 'closed', state_reason: change.reason ?? 'completed' }
      : { state: 'open', state_reason: 'reopened' };
  return parseIssue(
    await call(auth, http, `${repoPath(repo)}/issues/${number}`, { method: 'PATCH', body }, 'issue'),
  );
}

const commentSchema = z.looseObject({ id: z.number(), html_url: z.string().optional() });

/** Posts a comment (Markdown) on an issue; answers its id. */
export async function createComment(
  http: Http,
  auth: GithubAuth,
  repo: string,
  number: number,
  body: string,
): Promise<{ id: number; url?: string }> {
  const parsed = commentSchema.safeParse(
    await call(
      auth,
      http,
      `${repoPath(repo)}/issues/${number}/comments`,
      { method: 'POST', body: { body: body.slice(0, BODY_MAX) } },
      'issue',
    ),
  );
  if (!parsed.success) throw unexpected('comment');
  return { id: parsed.data.id, ...(parsed.data.html_url ? { url: parsed.data.html_url } : {}) };
}

const hookSchema = z.looseObject({ id: z.number() });

/**
 * Registers Snag's inbound URL as a repository hook for issues and issue comments, JSON bodies signed
 * with `secret` (`X-Hub-Signature-256`). The token needs the Webhooks permission (read and write).
 */
export async function createRepoHook(
  http: Http,
  auth: GithubAuth,
  repo: string,
  hook: { url: string; secret: string },
): Promise<{ id: number }> {
  const parsed = hookSchema.safeParse(
    await call(
      auth,
      http,
      `${repoPath(repo)}/hooks`,
      {
        method: 'POST',
        body: {
          name: 'web',
          active: true,
          events: ['issues', 'issue_comment'],
          config: { url: hook.url, content_type: 'json', secret: hook.secret, insecure_ssl: '0' },
        },
      },
      'repository',
    ),
  );
  if (!parsed.success) throw unexpected('hook');
  return { id: parsed.data.id };
}

/**
 * Deletes a repository hook (`DELETE /repos/{owner}/{repo}/hooks/{hook_id}`, repos/delete-webhook: 204,
 * 404 when it is gone): the one a new secret replaces or a removed integration leaves behind.
 */
export async function deleteRepoHook(http: Http, auth: GithubAuth, repo: string, hookId: string) {
  if (!/^\d{1,20}$/.test(hookId)) throw new VendorError('github', true, 'Not a GitHub hook id');
  await call(auth, http, `${repoPath(repo)}/hooks/${hookId}`, { method: 'DELETE' }, 'hook');
}

/**
 * The vendor id a delivery records: the issue's address, which names the repository and the number
 * (`https://github.com/<owner>/<repo>/issues/<n>`), so a link and the number come from one attribute.
 */
export const githubVendorId = (issue: Pick<GithubIssue, 'html_url' | 'number'>) => issue.html_url;

/** The issue number of a recorded vendor id (`…/issues/<n>`), or undefined. */
export function githubIssueNumberOf(vendorId: string): number | undefined {
  const m = /\/issues\/(\d+)(?:[?#].*)?$/.exec(vendorId);
  return m ? Number(m[1]) : undefined;
}
