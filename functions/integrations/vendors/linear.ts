/**
 * Linear's GraphQL API (../shared/api-specs/linear/schema.EXCERPTS.graphql and the README's notes): one
 * endpoint (`LINEAR_API_URL`), a personal API key in `Authorization` WITHOUT `Bearer` (that prefix is
 * OAuth's). GraphQL reports failures in the body, often with HTTP 200: `errors[]` with
 * `extensions.type`/`code`, or a mutation's `success: false`. Both become VendorErrors here, permanent
 * unless Linear says it is rate limiting or failing inside (docs/decisions.md "Linear: a personal API key").
 *
 * Besides what the delivery needs (viewer, teams, issueCreate, attachmentCreate, issue lookup), the two-way
 * sync's calls live here too: an issue's state, a team's workflow states, close/reopen through
 * `issueUpdate(stateId)`, `commentCreate` and `webhookCreate`.
 */
import * as z from 'zod';
import { type Http, readJson, retryAfterSeconds, send, statusError, VendorError } from './http';

export interface LinearAuth {
  /** The GraphQL endpoint (`LINEAR_API_URL`). */
  url: string;
  /** A personal API key (`lin_api_…`). */
  key: string;
}

const graphqlErrorSchema = z.looseObject({
  message: z.string().optional(),
  extensions: z
    .looseObject({
      type: z.string().optional(),
      code: z.string().optional(),
      userPresentableMessage: z.string().optional(),
    })
    .optional(),
});
const envelopeSchema = z.looseObject({
  data: z.unknown().optional(),
  errors: z.array(graphqlErrorSchema).optional(),
});

/** `authentication error`, `AUTHENTICATION_ERROR` and `AuthenticationError` as one word: `authenticationerror`. */
const kindOf = (e: z.infer<typeof graphqlErrorSchema>) =>
  `${e.extensions?.type ?? ''} ${e.extensions?.code ?? ''}`.toLowerCase().replace(/[\s_-]+/g, '');

/** The first GraphQL error as a VendorError: who is to fix it decides whether a retry can help. */
function graphqlError(
  errors: z.infer<typeof graphqlErrorSchema>[],
  res: Response,
  what: string,
): VendorError {
  const first = errors[0] ?? {};
  const kind = kindOf(first);
  const status = res.status;
  const said = (first.extensions?.userPresentableMessage ?? first.message ?? 'no message').slice(0, 200);
  if (status === 401 || kind.includes('authentication'))
    return new VendorError('linear', true, 'Linear refused the API key: check the authorisation', {
      status,
      code: 'AUTHENTICATION_ERROR',
    });
  if (status === 403 || kind.includes('forbidden'))
    return new VendorError('linear', true, `Linear refused access (${what}): ${said}`, {
      status,
      code: 'FORBIDDEN',
    });
  if (kind.includes('ratelimit') || status === 429) {
    const wait = retryAfterSeconds(res.headers.get('retry-after'));
    return new VendorError('linear', false, `Linear is rate limiting requests (${what})`, {
      status,
      code: 'RATELIMITED',
      ...(wait !== undefined ? { retryAfterSeconds: wait } : {}),
    });
  }
  if (kind.includes('internal') || kind.includes('locktimeout') || status >= 500)
    return new VendorError('linear', false, `Linear failed to answer (${what}): ${said}`, {
      status,
      code: 'INTERNAL_ERROR',
    });
  if (/entity not found|could not find/i.test(`${first.message ?? ''} ${said}`))
    return new VendorError('linear', true, `Linear refused the ${what}: ${said}`, {
      status,
      code: 'NOT_FOUND',
    });
  return new VendorError('linear', true, `Linear refused the request (${what}): ${said}`, {
    status,
    code: 'INVALID_INPUT',
  });
}

/**
 * One GraphQL operation: the answer's `data` checked against `schema`. Redirects are refused (the key
 * would follow them), a GraphQL error is mapped by `graphqlError` whatever the HTTP status, and a 5xx or
 * a timeout without a readable body stays retryable.
 */
export async function linearCall<T>(
  http: Http,
  auth: LinearAuth,
  operation: { query: string; variables?: Record<string, unknown> },
  what: string,
  schema: z.ZodType<T>,
): Promise<T> {
  const res = await send('linear', http, auth.url, {
    method: 'POST',
    headers: { authorization: auth.key, 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ query: operation.query, variables: operation.variables ?? {} }),
  });
  if (res.status >= 300 && res.status < 400) {
    await res.body?.cancel().catch(() => {});
    throw new VendorError('linear', true, `Linear redirected the request (${what})`, { status: res.status });
  }
  const body = envelopeSchema.safeParse(await readJson('linear', res));
  if (body.success && body.data.errors?.length) throw graphqlError(body.data.errors, res, what);
  if (!res.ok) throw statusError('linear', res, what);
  const data = body.success ? schema.safeParse(body.data.data) : undefined;
  if (!data?.success) throw new VendorError('linear', false, `Linear answered an unexpected ${what}`);
  return data.data;
}

/** A mutation's payload: `success: false` is Linear declining it without an error. */
const payload = <S extends z.ZodType>(key: string, inner: S) =>
  z.object({ [key]: z.looseObject({ success: z.boolean() }).and(inner) });
const declined = (what: string) =>
  new VendorError('linear', true, `Linear did not accept the ${what} (success: false)`, { code: 'DECLINED' });

export interface Named {
  id: string;
  name: string;
}

/** The key's user: the check Authorize makes before listing. */
export async function viewer(http: Http, auth: LinearAuth): Promise<Named> {
  const out = await linearCall(
    http,
    auth,
    { query: 'query SnagViewer { viewer { id name } }' },
    'user',
    z.object({ viewer: z.looseObject({ id: z.string(), name: z.string() }) }),
  );
  return { id: out.viewer.id, name: out.viewer.name };
}

const teamsSchema = z.object({
  teams: z.object({
    nodes: z.array(z.looseObject({ id: z.string(), key: z.string(), name: z.string() })),
    pageInfo: z.looseObject({ hasNextPage: z.boolean(), endCursor: z.string().nullish() }),
  }),
});

/** The teams whose issues the key can reach, as "Name (KEY)": pages of 100 by cursor, at most 5 pages. */
export async function listTeams(http: Http, auth: LinearAuth): Promise<Named[]> {
  const out: Named[] = [];
  let after: string | null = null;
  for (let page = 0; page < 5; page++) {
    const { teams }: z.infer<typeof teamsSchema> = await linearCall(
      http,
      auth,
      {
        query:
          'query SnagTeams($after: String) { teams(first: 100, after: $after) { nodes { id key name } pageInfo { hasNextPage endCursor } } }',
        variables: { after },
      },
      'team list',
      teamsSchema,
    );
    out.push(...teams.nodes.map((t) => ({ id: t.id, name: `${t.name} (${t.key})` })));
    if (!teams.pageInfo.hasNextPage || !teams.pageInfo.endCursor) break;
    after = teams.pageInfo.endCursor;
  }
  return out;
}

export interface LinearIssueRef {
  /** Linear's UUID. */
  id: string;
  /** `ENG-123`. */
  identifier: string;
  url: string;
}
const issueRefSchema = z.looseObject({ id: z.string(), identifier: z.string(), url: z.string() });

/**
 * Creates an issue. `id` (a UUID v4 the caller derives from the delivery) makes the create repeatable:
 * a retry looks the id up first (`findIssue`) instead of creating a second issue.
 */
export async function createIssue(
  http: Http,
  auth: LinearAuth,
  input: { id?: string; teamId: string; title: string; description: string },
): Promise<LinearIssueRef> {
  const out = await linearCall(
    http,
    auth,
    {
      query:
        'mutation SnagIssueCreate($input: IssueCreateInput!) { issueCreate(input: $input) { success issue { id identifier url } } }',
      variables: { input: { ...input, title: input.title.slice(0, 255) } },
    },
    'issue',
    payload('issueCreate', z.object({ issue: issueRefSchema.nullish() })),
  );
  const created = out.issueCreate as { success: boolean; issue?: LinearIssueRef | null };
  if (!created.success || !created.issue) throw declined('issue');
  return { id: created.issue.id, identifier: created.issue.identifier, url: created.issue.url };
}

export type StateType = 'triage' | 'backlog' | 'unstarted' | 'started' | 'completed' | 'canceled' | string;
export interface WorkflowState {
  id: string;
  name: string;
  type: StateType;
  position: number;
}
const stateSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  type: z.string(),
  position: z.number().optional(),
});

export interface LinearIssue extends LinearIssueRef {
  state: Omit<WorkflowState, 'position'>;
  teamId: string;
  trashed: boolean;
}

/** An issue by UUID or identifier, with its state and team; null when Linear has none by that id. */
export async function findIssue(http: Http, auth: LinearAuth, id: string): Promise<LinearIssue | null> {
  try {
    const { issue } = await linearCall(
      http,
      auth,
      {
        query:
          'query SnagIssue($id: String!) { issue(id: $id) { id identifier url trashed state { id name type } team { id } } }',
        variables: { id },
      },
      'issue',
      z.object({
        issue: issueRefSchema.extend({
          trashed: z.boolean().nullish(),
          state: stateSchema,
          team: z.looseObject({ id: z.string() }),
        }),
      }),
    );
    return {
      id: issue.id,
      identifier: issue.identifier,
      url: issue.url,
      trashed: issue.trashed === true,
      state: { id: issue.state.id, name: issue.state.name, type: issue.state.type },
      teamId: issue.team.id,
    };
  } catch (err) {
    if (err instanceof VendorError && err.details.code === 'NOT_FOUND') return null;
    throw err;
  }
}

/** A team's workflow states, in Linear's order (`position`). */
export async function teamStates(http: Http, auth: LinearAuth, teamId: string): Promise<WorkflowState[]> {
  const { team } = await linearCall(
    http,
    auth,
    {
      query:
        'query SnagTeamStates($id: String!) { team(id: $id) { states(first: 100) { nodes { id name type position } } } }',
      variables: { id: teamId },
    },
    'team',
    z.object({ team: z.object({ states: z.object({ nodes: z.array(stateSchema) }) }) }),
  );
  return team.states.nodes
    .map((s) => ({ id: s.id, name: s.name, type: s.type, position: s.position ?? 0 }))
    .sort((a, b) => a.position - b.position);
}

/** Linear has no open/closed flag: a state's type decides (README "Linear API"). */
export const isClosedState = (type: StateType) => type === 'completed' || type === 'canceled';

/**
 * The state to move an issue to: closing takes the first `completed` state (else `canceled`), reopening
 * the first `unstarted` (else `backlog`, else `started`); null when the team has none of them.
 */
export function stateFor(states: readonly WorkflowState[], open: boolean): WorkflowState | null {
  const order = open ? ['unstarted', 'backlog', 'started'] : ['completed', 'canceled'];
  for (const type of order) {
    const found = states.find((s) => s.type === type);
    if (found) return found;
  }
  return null;
}

/** `issueUpdate(id, {stateId})`: answers the issue's state after the change. */
export async function setIssueState(
  http: Http,
  auth: LinearAuth,
  issueId: string,
  stateId: string,
): Promise<Omit<WorkflowState, 'position'>> {
  const out = await linearCall(
    http,
    auth,
    {
      query:
        'mutation SnagIssueState($id: String!, $input: IssueUpdateInput!) { issueUpdate(id: $id, input: $input) { success issue { id state { id name type } } } }',
      variables: { id: issueId, input: { stateId } },
    },
    'issue',
    payload('issueUpdate', z.object({ issue: z.looseObject({ state: stateSchema }).nullish() })),
  );
  const updated = out.issueUpdate as { success: boolean; issue?: { state: WorkflowState } | null };
  if (!updated.success || !updated.issue) throw declined('state change');
  const { id, name, type } = updated.issue.state;
  return { id, name, type };
}

/**
 * Closes (`open` false) or reopens an issue: nothing when it already is so (no update, so no webhook that
 * would echo back), else the state `stateFor` picks from its team's states. Answers whether it changed.
 */
export async function setIssueOpen(http: Http, auth: LinearAuth, issueId: string, open: boolean) {
  const issue = await findIssue(http, auth, issueId);
  if (!issue) throw new VendorError('linear', true, 'Linear could not find the issue', { code: 'NOT_FOUND' });
  if (isClosedState(issue.state.type) !== open) return false;
  const target = stateFor(await teamStates(http, auth, issue.teamId), open);
  if (!target)
    throw new VendorError(
      'linear',
      true,
      `The Linear team has no ${open ? 'open' : 'closed'} workflow state`,
    );
  await setIssueState(http, auth, issue.id, target.id);
  return true;
}

/** `commentCreate({issueId, body})` (Markdown): answers the comment's id. */
export async function createComment(http: Http, auth: LinearAuth, issueId: string, body: string) {
  const out = await linearCall(
    http,
    auth,
    {
      query:
        'mutation SnagComment($input: CommentCreateInput!) { commentCreate(input: $input) { success comment { id } } }',
      variables: { input: { issueId, body } },
    },
    'comment',
    payload('commentCreate', z.object({ comment: z.looseObject({ id: z.string() }) })),
  );
  const created = out.commentCreate as { success: boolean; comment: { id: string } };
  if (!created.success) throw declined('comment');
  return { id: created.comment.id };
}

/**
 * `attachmentCreate`: a link on the issue. Linear keys attachments by URL per issue (the same URL again
 * updates the one it has), so sending it again on a retry adds nothing.
 */
export async function createAttachment(
  http: Http,
  auth: LinearAuth,
  input: { issueId: string; title: string; url: string; subtitle?: string },
) {
  const out = await linearCall(
    http,
    auth,
    {
      query:
        'mutation SnagAttachment($input: AttachmentCreateInput!) { attachmentCreate(input: $input) { success attachment { id } } }',
      variables: { input },
    },
    'attachment',
    payload('attachmentCreate', z.object({ attachment: z.looseObject({ id: z.string() }) })),
  );
  const created = out.attachmentCreate as { success: boolean; attachment: { id: string } };
  if (!created.success) throw declined('attachment');
  return { id: created.attachment.id };
}

/** The titles of an issue's attachments (a retry attaches only the links it does not have yet). */
export async function attachmentTitles(http: Http, auth: LinearAuth, issueId: string): Promise<Set<string>> {
  const { issue } = await linearCall(
    http,
    auth,
    {
      query:
        'query SnagAttachments($id: String!) { issue(id: $id) { attachments(first: 100) { nodes { title url } } } }',
      variables: { id: issueId },
    },
    'issue',
    z.object({
      issue: z.object({ attachments: z.object({ nodes: z.array(z.looseObject({ title: z.string() })) }) }),
    }),
  );
  return new Set(issue.attachments.nodes.map((a) => a.title));
}

/**
 * `webhookCreate` for one team's issues and comments, signed with `secret` (Linear-Signature). Linear
 * lets only workspace admins (or OAuth apps with `admin`) do this; a refusal is a FORBIDDEN VendorError.
 */
export async function createWebhook(
  http: Http,
  auth: LinearAuth,
  input: { url: string; teamId: string; secret: string; label?: string },
) {
  const out = await linearCall(
    http,
    auth,
    {
      query:
        'mutation SnagWebhook($input: WebhookCreateInput!) { webhookCreate(input: $input) { success webhook { id enabled } } }',
      variables: { input: { ...input, resourceTypes: ['Issue', 'Comment'] } },
    },
    'webhook',
    payload('webhookCreate', z.object({ webhook: z.looseObject({ id: z.string(), enabled: z.boolean() }) })),
  );
  const created = out.webhookCreate as { success: boolean; webhook: { id: string; enabled: boolean } };
  if (!created.success) throw declined('webhook');
  return created.webhook;
}

/**
 * `webhookDelete(id)` (DeletePayload): the webhook a new secret replaces or a removed integration leaves
 * behind. One Linear no longer knows is a NOT_FOUND VendorError (registration.ts counts it as deleted).
 */
export async function deleteWebhook(http: Http, auth: LinearAuth, webhookId: string): Promise<void> {
  const out = await linearCall(
    http,
    auth,
    {
      query: 'mutation SnagWebhookDelete($id: String!) { webhookDelete(id: $id) { success entityId } }',
      variables: { id: webhookId },
    },
    'webhook',
    payload('webhookDelete', z.looseObject({})),
  );
  if (!(out.webhookDelete as { success: boolean }).success) throw declined('webhook');
}

/**
 * What a delivery records on the Snag issue (`vendor_linear`): `<uuid> <identifier> <url>`, so that the
 * sync can address the issue by its UUID and the dashboard can show `ENG-123` and link it. None of the
 * three contains a space.
 */
export const linearVendorId = (ref: LinearIssueRef) => `${ref.id} ${ref.identifier} ${ref.url}`;
export function parseLinearVendorId(value: string): LinearIssueRef | null {
  const [id, identifier, url, extra] = value.split(' ');
  return id && identifier && url && extra === undefined ? { id, identifier, url } : null;
}
