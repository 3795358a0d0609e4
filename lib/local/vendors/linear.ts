/**
 * Linear's local fake (../shared/api-specs/linear and the README's notes). One GraphQL endpoint,
 * `POST <url>/graphql`, that parses, validates and executes every request with graphql-js against the
 * schema excerpt Linear publishes (linear.schema.graphql, verbatim): a field, argument or input the
 * excerpt does not have is refused as Linear refuses it, so the client cannot drift from the real API.
 *
 * Auth: a personal API key as the whole `Authorization` header (no `Bearer`; that is OAuth's, and this fake
 * issues no OAuth tokens). A key containing "invalid", a revoked key, a Bearer token or none is refused
 * with Linear's authentication error (HTTP 400, `extensions.type` "authentication error"). A key
 * containing "member" is not a workspace admin: `webhookCreate` and `webhookDelete` are forbidden to it,
 * as in Linear.
 *
 * It keeps teams (ENG and OPS, each with Linear's default workflow states), issues, comments, attachments
 * and webhooks. The control calls act as a Linear user, "Lin Human", and send the signed webhook deliveries
 * Linear would send to the webhooks registered for the team (`Linear-Signature`: hex HMAC-SHA256 of the raw
 * body with the webhook's secret; `webhookTimestamp` in ms in the body; EntityWebhookPayload shapes):
 *   POST /_fake/issues/{id or identifier}/state    {"type": "completed" | "canceled" | "started" | …}
 *   POST /_fake/issues/{id or identifier}/comments {"body": "…"}
 * Changes made through the API (issueUpdate, commentCreate) are delivered too, with the key's user as the
 * actor: the echo a two-way sync must recognise.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import {
  buildSchema,
  type DocumentNode,
  execute,
  GraphQLError,
  type GraphQLSchema,
  parse,
  validate,
} from 'graphql';
import { type Fake, type FakeReply, type FakeRequest, itemPage, postHook, startFake } from './fake';
import { linesOutsideFences } from './markdown';

let cachedSchema: GraphQLSchema | undefined;
/** Linear's schema excerpt, built once per process. */
export function linearSchema(): GraphQLSchema {
  cachedSchema ??= buildSchema(readFileSync(new URL('./linear.schema.graphql', import.meta.url), 'utf8'));
  return cachedSchema;
}

export interface LinearUser {
  id: string;
  name: string;
  displayName: string;
  email: string;
}
export interface LinearState {
  id: string;
  name: string;
  type: string;
  position: number;
  color: string;
}
export interface LinearTeam {
  id: string;
  key: string;
  name: string;
  states: LinearState[];
}
export interface LinearIssue {
  id: string;
  identifier: string;
  number: number;
  teamId: string;
  title: string;
  description: string;
  stateId: string;
  url: string;
  createdAt: string;
  updatedAt: string;
  creatorId: string;
  /** What Linear would act on in the description: `@name` mentions and `ENG-12` issue references outside code. */
  mentions: string[];
  references: string[];
  /** Markdown images outside code (Linear copies them into its storage). */
  images: string[];
}
export interface LinearComment {
  id: string;
  issueId: string;
  body: string;
  userId: string;
  createdAt: string;
}
export interface LinearAttachment {
  id: string;
  issueId: string;
  title: string;
  subtitle?: string;
  url: string;
}
export interface LinearWebhook {
  id: string;
  url: string;
  teamId?: string;
  allPublicTeams: boolean;
  resourceTypes: string[];
  secret?: string;
  label?: string;
  creatorId: string;
}
/** One webhook delivery the fake sent, with the receiver's answer. */
export interface LinearDelivery {
  webhookId: string;
  url: string;
  body: string;
  headers: Record<string, string>;
  status: number;
}

export interface LinearFake extends Fake {
  /** The GraphQL endpoint, for `LINEAR_API_URL`. */
  apiUrl: string;
  teams: LinearTeam[];
  issues: LinearIssue[];
  comments: LinearComment[];
  attachments: LinearAttachment[];
  webhooks: LinearWebhook[];
  deliveries: LinearDelivery[];
  /** The user behind every accepted key, and the one the control calls act as. */
  viewer: LinearUser;
  human: LinearUser;
  revoke(key: string): void;
  /** More teams (paging tests); `reset` goes back to the two. */
  addTeams(count: number): void;
  /** The control calls as functions: change an issue's state to the first of `type`, or comment, as Lin Human. */
  setState(issue: string, type: string): Promise<LinearDelivery[]>;
  comment(issue: string, body: string): Promise<LinearDelivery[]>;
}

const ORG = 'snag-fake';
const defaultStates: Omit<LinearState, 'id'>[] = [
  { name: 'Backlog', type: 'backlog', position: 0, color: '#bec2c8' },
  { name: 'Todo', type: 'unstarted', position: 1, color: '#e2e2e2' },
  { name: 'In Progress', type: 'started', position: 2, color: '#f2c94c' },
  { name: 'Done', type: 'completed', position: 3, color: '#5e6ad2' },
  { name: 'Canceled', type: 'canceled', position: 4, color: '#95a2b3' },
];
const teamOf = (key: string, name: string, n: number): LinearTeam => {
  const id = `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
  return {
    id,
    key,
    name,
    states: defaultStates.map((s, i) => ({
      ...s,
      id: `00000000-0000-4000-9${String(n).padStart(3, '0')}-${String(i).padStart(12, '0')}`,
    })),
  };
};
const initialTeams = () => [teamOf('ENG', 'Engineering', 1), teamOf('OPS', 'Operations', 2)];

/**
 * What Linear acts on in Markdown: `@name` mentions and `ABC-12` issue references outside fenced blocks
 * (`linesOutsideFences`) and code spans, and images (`![alt](url)`).
 */
export function linearMarkdownActs(markdown: string) {
  const mentions: string[] = [];
  const references: string[] = [];
  const images: string[] = [];
  for (const line of linesOutsideFences(markdown)) {
    const prose = line.replace(/(`+)[\s\S]*?\1/g, '');
    for (const m of prose.matchAll(/(?:^|[^\w`\\])@([a-z0-9_][a-z0-9_.-]*)/gi)) mentions.push(`@${m[1]}`);
    for (const m of prose.matchAll(/(?:^|[^\w-])([A-Z][A-Z0-9]{0,6}-[1-9]\d*)\b/g))
      references.push(m[1] as string);
    for (const m of prose.matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)) images.push(m[1] as string);
  }
  return { mentions, references, images };
}

/** Linear's error shapes (as its SDK reads them: `extensions.type`, `code`, `userPresentableMessage`). */
const linearError = (message: string, type: string, code: string, userPresentableMessage = message) =>
  new GraphQLError(message, { extensions: { type, code, userPresentableMessage } });
const invalid = (message: string) => linearError(message, 'invalid input', 'INVALID_INPUT');
const notFound = (what: string) =>
  linearError(
    `Entity not found: ${what}`,
    'invalid input',
    'INVALID_INPUT',
    `Could not find referenced ${what}.`,
  );
const authError = {
  message: 'Authentication required, not authenticated',
  extensions: {
    type: 'authentication error',
    code: 'AUTHENTICATION_ERROR',
    userPresentableMessage: 'You need to authenticate to access this operation.',
  },
};

const uuidV4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
const isUrl = (value: string) => {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
};
const now = () => new Date().toISOString();

export async function startLinearFake(port = 0): Promise<LinearFake> {
  let teams = initialTeams();
  const issues: LinearIssue[] = [];
  const comments: LinearComment[] = [];
  const attachments: LinearAttachment[] = [];
  const webhooks: LinearWebhook[] = [];
  const deliveries: LinearDelivery[] = [];
  const revoked = new Set<string>();
  const viewer: LinearUser = {
    id: 'a0000000-0000-4000-8000-000000000001',
    name: 'Snag Tester',
    displayName: 'snag',
    email: 'tester@example.com',
  };
  const human: LinearUser = {
    id: 'a0000000-0000-4000-8000-000000000002',
    name: 'Lin Human',
    displayName: 'lin',
    email: 'lin@example.com',
  };
  let base = '';

  const userView = (u: LinearUser) => ({
    ...u,
    active: true,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    url: `${base}/${ORG}/profiles/${u.displayName}`,
  });
  const team = (id: string) => teams.find((t) => t.id === id || t.key === id);
  const issueBy = (id: string) => issues.find((i) => i.id === id || i.identifier === id);
  const stateOf = (i: LinearIssue) => team(i.teamId)?.states.find((s) => s.id === i.stateId) as LinearState;

  const connection = <T>(all: T[], args: { first?: number; after?: string }, idOf: (x: T) => string) => {
    const start = args.after ? all.findIndex((x) => idOf(x) === args.after) + 1 : 0;
    const nodes = all.slice(start, start + Math.min(250, args.first ?? 50));
    return {
      nodes,
      edges: nodes.map((node) => ({ node, cursor: idOf(node) })),
      pageInfo: {
        hasNextPage: start + nodes.length < all.length,
        hasPreviousPage: start > 0,
        startCursor: nodes[0] ? idOf(nodes[0]) : null,
        endCursor: nodes.length ? idOf(nodes[nodes.length - 1] as T) : null,
      },
    };
  };
  const stateView = (s: LinearState, t: LinearTeam) => ({
    ...s,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    team: () => teamView(t),
  });
  const teamView = (t: LinearTeam) => ({
    id: t.id,
    key: t.key,
    name: t.name,
    displayName: t.name,
    private: false,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    defaultIssueState: () => stateView(t.states[1] as LinearState, t),
    states: (args: { first?: number; after?: string }) =>
      connection(
        t.states.map((s) => stateView(s, t)),
        args,
        (s) => s.id,
      ),
  });
  const issueView = (i: LinearIssue) => {
    const t = team(i.teamId) as LinearTeam;
    const creator = i.creatorId === human.id ? human : viewer;
    return {
      ...i,
      trashed: false,
      state: () => stateView(stateOf(i), t),
      team: () => teamView(t),
      creator: () => userView(creator),
      attachments: (args: { first?: number; after?: string }) =>
        connection(
          attachments
            .filter((a) => a.issueId === i.id)
            .map((a) => ({
              ...a,
              metadata: {},
              createdAt: now(),
              updatedAt: now(),
              issue: () => issueView(i),
            })),
          args,
          (a) => a.id,
        ),
      comments: (args: { first?: number; after?: string }) =>
        connection(
          comments.filter((c) => c.issueId === i.id).map((c) => commentView(c)),
          args,
          (c) => c.id,
        ),
    };
  };
  const commentView = (c: LinearComment) => ({
    ...c,
    updatedAt: c.createdAt,
    url: `${issueBy(c.issueId)?.url ?? base}#comment-${c.id.slice(0, 8)}`,
    user: () => userView(c.userId === human.id ? human : viewer),
    issue: () => issueView(issueBy(c.issueId) as LinearIssue),
  });

  /** Sends the webhook deliveries of one change to the webhooks registered for its team and type. */
  async function deliver(
    type: 'Issue' | 'Comment',
    action: 'create' | 'update',
    teamId: string,
    data: Record<string, unknown>,
    actor: LinearUser,
    url: string,
    updatedFrom?: Record<string, unknown>,
  ): Promise<LinearDelivery[]> {
    const sent: LinearDelivery[] = [];
    for (const hook of webhooks) {
      if (!hook.resourceTypes.includes(type)) continue;
      if (!hook.allPublicTeams && hook.teamId !== teamId) continue;
      const body = JSON.stringify({
        action,
        type,
        data,
        ...(updatedFrom ? { updatedFrom } : {}),
        url,
        actor: { id: actor.id, name: actor.name, email: actor.email, type: 'user', url: userView(actor).url },
        createdAt: now(),
        organizationId: 'b0000000-0000-4000-8000-000000000001',
        webhookId: hook.id,
        webhookTimestamp: Date.now(),
      });
      const headers: Record<string, string> = {
        'content-type': 'application/json; charset=utf-8',
        'user-agent': 'Linear-Webhook',
        'linear-delivery': randomUUID(),
        'linear-event': type,
        ...(hook.secret
          ? { 'linear-signature': createHmac('sha256', hook.secret).update(body).digest('hex') }
          : {}),
      };
      const status = await postHook(hook.url, headers, body, 5000);
      const delivery = { webhookId: hook.id, url: hook.url, body, headers, status };
      deliveries.push(delivery);
      sent.push(delivery);
    }
    return sent;
  }

  const issueHookData = (i: LinearIssue) => {
    const s = stateOf(i);
    const t = team(i.teamId) as LinearTeam;
    return {
      id: i.id,
      identifier: i.identifier,
      number: i.number,
      title: i.title,
      description: i.description,
      url: i.url,
      createdAt: i.createdAt,
      updatedAt: i.updatedAt,
      ...(s.type === 'completed' ? { completedAt: i.updatedAt } : {}),
      ...(s.type === 'canceled' ? { canceledAt: i.updatedAt } : {}),
      stateId: s.id,
      state: { id: s.id, name: s.name, type: s.type, color: s.color },
      teamId: t.id,
      team: { id: t.id, key: t.key, name: t.name },
      creatorId: i.creatorId,
      labelIds: [],
      labels: [],
      previousIdentifiers: [],
      priority: 0,
      priorityLabel: 'No priority',
      prioritySortOrder: 0,
      sortOrder: i.number,
      reactionData: {},
      subscriberIds: [i.creatorId],
    };
  };
  const commentHookData = (c: LinearComment, i: LinearIssue, user: LinearUser) => {
    const t = team(i.teamId) as LinearTeam;
    return {
      id: c.id,
      body: c.body,
      issueId: i.id,
      issue: {
        id: i.id,
        identifier: i.identifier,
        title: i.title,
        url: i.url,
        teamId: t.id,
        team: { id: t.id, key: t.key, name: t.name },
      },
      userId: user.id,
      user: { id: user.id, name: user.name, email: user.email, url: userView(user).url },
      createdAt: c.createdAt,
      updatedAt: c.createdAt,
      reactionData: {},
    };
  };

  async function changeState(i: LinearIssue, stateId: string, actor: LinearUser) {
    const before = { stateId: i.stateId, updatedAt: i.updatedAt };
    if (before.stateId === stateId) return [];
    i.stateId = stateId;
    i.updatedAt = now();
    return deliver('Issue', 'update', i.teamId, issueHookData(i), actor, i.url, before);
  }
  async function addComment(i: LinearIssue, body: string, user: LinearUser) {
    const c: LinearComment = { id: randomUUID(), issueId: i.id, body, userId: user.id, createdAt: now() };
    comments.push(c);
    const sent = await deliver('Comment', 'create', i.teamId, commentHookData(c, i, user), user, i.url);
    return { comment: c, sent };
  }

  const rootValue = {
    viewer: () => userView(viewer),
    teams: (args: { first?: number; after?: string }) => connection(teams.map(teamView), args, (t) => t.id),
    team: ({ id }: { id: string }) => {
      const t = team(id);
      if (!t) throw notFound('Team');
      return teamView(t);
    },
    workflowStates: (args: { first?: number; after?: string }) =>
      connection(
        teams.flatMap((t) => t.states.map((s) => stateView(s, t))),
        args,
        (s) => s.id,
      ),
    issue: ({ id }: { id: string }) => {
      const i = issueBy(id);
      if (!i) throw notFound('Issue');
      return issueView(i);
    },
    issueCreate: ({ input }: { input: Record<string, unknown> }) => {
      const t = team(String(input.teamId));
      if (!t || t.id !== input.teamId) throw notFound('Team');
      const title = typeof input.title === 'string' ? input.title.trim() : '';
      if (!title) throw invalid('title must not be empty');
      if (title.length > 255) throw invalid('title must be shorter than or equal to 255 characters');
      if (input.id !== undefined && !uuidV4.test(String(input.id))) throw invalid('id must be a UUID v4');
      if (input.id !== undefined && issues.some((i) => i.id === input.id))
        throw linearError(
          'Entity already exists',
          'invalid input',
          'CONFLICT',
          'An issue with this id exists.',
        );
      const description = typeof input.description === 'string' ? input.description : '';
      if (description.length > 250_000) throw invalid('description is too long');
      const stateId = typeof input.stateId === 'string' ? input.stateId : (t.states[1] as LinearState).id;
      if (!t.states.some((s) => s.id === stateId)) throw notFound('WorkflowState');
      const number = issues.filter((i) => i.teamId === t.id).length + 1;
      const identifier = `${t.key}-${number}`;
      const acts = linearMarkdownActs(description);
      const issue: LinearIssue = {
        id: typeof input.id === 'string' ? input.id : randomUUID(),
        identifier,
        number,
        teamId: t.id,
        title,
        description,
        stateId,
        url: `${base}/${ORG}/issue/${identifier}/${title
          .toLowerCase()
          .replace(/[^a-z0-9]+/g, '-')
          .replace(/^-|-$/g, '')
          .slice(0, 60)}`,
        createdAt: now(),
        updatedAt: now(),
        creatorId: viewer.id,
        ...acts,
      };
      issues.push(issue);
      void deliver('Issue', 'create', t.id, issueHookData(issue), viewer, issue.url);
      return { success: true, lastSyncId: issues.length, issue: issueView(issue) };
    },
    issueUpdate: async ({ id, input }: { id: string; input: Record<string, unknown> }) => {
      const i = issueBy(id);
      if (!i) throw notFound('Issue');
      const unsupported = Object.keys(input).filter((k) => k !== 'stateId');
      if (unsupported.length) throw invalid(`this fake changes only stateId, not ${unsupported.join(', ')}`);
      if (typeof input.stateId === 'string') {
        if (!team(i.teamId)?.states.some((s) => s.id === input.stateId)) throw notFound('WorkflowState');
        await changeState(i, input.stateId, viewer);
      }
      return { success: true, lastSyncId: 0, issue: issueView(i) };
    },
    commentCreate: async ({ input }: { input: Record<string, unknown> }) => {
      if (typeof input.issueId !== 'string') throw invalid('issueId is required in this fake');
      const i = issueBy(input.issueId);
      if (!i) throw notFound('Issue');
      if (typeof input.body !== 'string' || !input.body.trim()) throw invalid('body must not be empty');
      const { comment } = await addComment(i, input.body, viewer);
      return { success: true, lastSyncId: 0, comment: commentView(comment) };
    },
    attachmentCreate: ({ input }: { input: Record<string, unknown> }) => {
      const i = issueBy(String(input.issueId));
      if (!i) throw notFound('Issue');
      const url = String(input.url);
      if (!isUrl(url)) throw invalid('url must be a URL address');
      if (!String(input.title).trim()) throw invalid('title must not be empty');
      // The same URL on the same issue updates the attachment (the schema's own words).
      let a = attachments.find((x) => x.issueId === i.id && x.url === url);
      if (!a) {
        a = { id: randomUUID(), issueId: i.id, title: '', url };
        attachments.push(a);
      }
      a.title = String(input.title);
      if (typeof input.subtitle === 'string') a.subtitle = input.subtitle;
      const out = a;
      return {
        success: true,
        lastSyncId: 0,
        attachment: { ...out, metadata: {}, createdAt: now(), updatedAt: now(), issue: () => issueView(i) },
      };
    },
    attachmentLinkURL: (args: { issueId: string; url: string; title?: string }) =>
      rootValue.attachmentCreate({
        input: { issueId: args.issueId, url: args.url, title: args.title ?? args.url },
      }),
    webhookCreate: ({ input }: { input: Record<string, unknown> }, key: string) => {
      if (key.includes('member'))
        throw linearError(
          'Invalid role: admin required',
          'forbidden',
          'FORBIDDEN',
          'You need to be a workspace admin to create webhooks.',
        );
      const url = String(input.url);
      if (!isUrl(url)) throw invalid('url must be a URL address');
      const resourceTypes = input.resourceTypes as string[];
      const known = ['Issue', 'Comment', 'Attachment', 'Project', 'Cycle', 'IssueLabel', 'Reaction'];
      if (!resourceTypes.length || resourceTypes.some((r) => !known.includes(r)))
        throw invalid('resourceTypes must name resource types');
      const teamId = typeof input.teamId === 'string' ? input.teamId : undefined;
      if (teamId && !team(teamId)) throw notFound('Team');
      if (!teamId && input.allPublicTeams !== true) throw invalid('teamId or allPublicTeams is required');
      const hook: LinearWebhook = {
        id: randomUUID(),
        url,
        ...(teamId ? { teamId } : {}),
        allPublicTeams: input.allPublicTeams === true,
        resourceTypes,
        ...(typeof input.secret === 'string' ? { secret: input.secret } : {}),
        ...(typeof input.label === 'string' ? { label: input.label } : {}),
        creatorId: viewer.id,
      };
      webhooks.push(hook);
      return {
        success: true,
        lastSyncId: 0,
        webhook: {
          ...hook,
          enabled: input.enabled !== false,
          createdAt: now(),
          updatedAt: now(),
          team: teamId ? () => teamView(team(teamId) as LinearTeam) : null,
        },
      };
    },
    // Only an admin may delete a webhook, as create; one Linear no longer has is "Entity not found".
    webhookDelete: ({ id }: { id: string }, key: string) => {
      if (key.includes('member'))
        throw linearError(
          'Invalid role: admin required',
          'forbidden',
          'FORBIDDEN',
          'You need to be a workspace admin to delete webhooks.',
        );
      const at = webhooks.findIndex((w) => w.id === id);
      if (at < 0) throw notFound('Webhook');
      webhooks.splice(at, 1);
      return { success: true, lastSyncId: 0, entityId: id };
    },
  };

  async function graphql(req: FakeRequest): Promise<FakeReply> {
    const key = req.headers.authorization ?? '';
    if (!key || /^Bearer\s/i.test(key) || key.includes('invalid') || revoked.has(key))
      return { status: 400, json: { errors: [authError] } };
    const body = (req.body ?? {}) as { query?: unknown; variables?: unknown; operationName?: unknown };
    if (typeof body.query !== 'string')
      return { status: 400, json: { errors: [{ message: 'Must provide query string.' }] } };
    let document: DocumentNode;
    try {
      document = parse(body.query);
    } catch (err) {
      return { status: 400, json: { errors: [(err as GraphQLError).toJSON()] } };
    }
    const invalidDoc = validate(linearSchema(), document);
    if (invalidDoc.length)
      return {
        status: 400,
        json: {
          errors: invalidDoc.map((e) => ({
            ...e.toJSON(),
            extensions: { type: 'graphql error', code: 'GRAPHQL_VALIDATION_FAILED' },
          })),
        },
      };
    // graphql-js calls a root field's resolver with (args, context): the key reaches webhookCreate so.
    const result = await execute({
      schema: linearSchema(),
      document,
      rootValue,
      contextValue: key,
      variableValues: (body.variables ?? {}) as Record<string, unknown>,
      ...(typeof body.operationName === 'string' ? { operationName: body.operationName } : {}),
    });
    const errors = result.errors?.map((e) => e.toJSON());
    // Variables that do not fit the schema fail before execution: a 400, as Linear answers them.
    const status = result.data === undefined && errors?.length ? 400 : 200;
    return {
      status,
      json: { ...(result.data !== undefined ? { data: result.data } : {}), ...(errors ? { errors } : {}) },
    };
  }

  const findOr404 = (id: string) => issueBy(decodeURIComponent(id));
  async function setState(id: string, type: string) {
    const i = findOr404(id);
    if (!i) throw new Error(`no issue ${id}`);
    const target = team(i.teamId)?.states.find((s) => s.type === type);
    if (!target) throw new Error(`no state of type ${type}`);
    return changeState(i, target.id, human);
  }
  async function comment(id: string, body: string) {
    const i = findOr404(id);
    if (!i) throw new Error(`no issue ${id}`);
    return (await addComment(i, body, human)).sent;
  }

  const route = async (req: FakeRequest): Promise<FakeReply> => {
    if (req.method === 'POST' && req.path === '/graphql') return graphql(req);
    // An issue's page (its `url`), so the link Snag shows opens something locally.
    const page = new RegExp(`^/${ORG}/issue/([^/]+)(?:/[^/]*)?$`).exec(req.path);
    if (req.method === 'GET' && page) {
      const i = issueBy(decodeURIComponent(page[1] ?? ''));
      if (!i) return { status: 404, text: 'not found' };
      return itemPage({
        vendor: 'Linear',
        place: team(i.teamId)?.name ?? i.teamId,
        title: i.title,
        reference: i.identifier,
        facts: [`State: ${stateOf(i).name}`],
        body: i.description,
        comments: comments
          .filter((c) => c.issueId === i.id)
          .map((c) => ({
            author: [viewer, human].find((u) => u.id === c.userId)?.name ?? c.userId,
            body: c.body,
          })),
      });
    }
    const control = /^\/_fake\/issues\/([^/]+)\/(state|comments)$/.exec(req.path);
    if (req.method === 'POST' && control) {
      const i = findOr404(control[1] as string);
      if (!i) return { status: 404, json: { error: 'no such issue' } };
      const input = (req.body ?? {}) as { type?: unknown; body?: unknown };
      if (control[2] === 'state') {
        const type = String(input.type ?? '');
        if (!team(i.teamId)?.states.some((s) => s.type === type))
          return {
            status: 400,
            json: { error: 'type: one of backlog, unstarted, started, completed, canceled' },
          };
        const sent = await setState(i.id, type);
        return {
          json: { issue: i.identifier, state: stateOf(i).name, deliveries: sent.map((d) => d.status) },
        };
      }
      if (typeof input.body !== 'string' || !input.body.trim())
        return { status: 400, json: { error: 'body is required' } };
      const sent = await comment(i.id, input.body);
      return { json: { issue: i.identifier, deliveries: sent.map((d) => d.status) } };
    }
    return { status: 404, json: { error: `POST GraphQL to ${base}/graphql; see ${base}/_fake` } };
  };

  const fake = await startFake(route, 'Linear', port);
  base = fake.url;
  return {
    ...fake,
    apiUrl: `${fake.url}/graphql`,
    get teams() {
      return teams;
    },
    issues,
    comments,
    attachments,
    webhooks,
    deliveries,
    viewer,
    human,
    revoke: (key) => revoked.add(key),
    addTeams: (count) => {
      const first = teams.length + 1;
      for (let n = first; n < first + count; n++) teams.push(teamOf(`T${n}`, `Team ${n}`, n));
    },
    setState,
    comment,
    reset: () => {
      fake.reset();
      teams = initialTeams();
      issues.length = 0;
      comments.length = 0;
      attachments.length = 0;
      webhooks.length = 0;
      deliveries.length = 0;
      revoked.clear();
    },
  };
}
