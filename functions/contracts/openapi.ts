/**
 * The OpenAPI 3.1 document of the public API (issue 25, docs/api.md), built from route declarations: each
 * `token` route's params, query, body and `response` zod schemas through zod 4's `z.toJSONSchema`, the
 * bearer scheme, the error envelope and its catalogue codes. Built, never hand-written, so it cannot drift
 * from what the pipeline validates and the handlers answer.
 */
import * as z from 'zod';
import { type ErrorCode, errorCatalogue } from './errors';
import type { RouteDecl } from './routes';

type Json = Record<string, unknown>;

/** Formats a reader (and a validator with ajv-formats) knows, whose regex zod also writes out in full. */
const namedFormats = new Set(['uuid', 'date', 'date-time', 'email']);

/**
 * What zod adds that only clutters a reader's view: `int()`'s ±(2^53 − 1) bounds (every JSON integer a client
 * sends is inside them) and, beside a named format, zod's own regex of that format.
 */
function tidy(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(tidy);
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node as Json)) {
    if ((k === 'minimum' || k === 'maximum') && Math.abs(Number(v)) === Number.MAX_SAFE_INTEGER) continue;
    if (k === 'pattern' && namedFormats.has(String((node as Json).format))) continue;
    out[k] = tidy(v);
  }
  return out;
}

/** Requests as a client writes them (before coercion and transforms); answers as the server sends them. */
const schemaOf = (schema: z.ZodType, io: 'input' | 'output'): Json => {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    target: 'draft-2020-12',
    reused: 'inline',
  }) as Json;
  return tidy(rest) as Json;
};

/** The error envelope every refusal answers with: `code` from the one catalogue, `msg` in the caller's language. */
const errorEnvelope: Json = {
  type: 'object',
  required: ['status', 'code', 'msg'],
  properties: {
    status: { const: 'error' },
    code: { type: 'string', enum: Object.keys(errorCatalogue) },
    msg: { type: 'string', description: 'In English, or German with `?lng=de`' },
    fields: { type: 'object', additionalProperties: { type: 'string' }, description: 'Per-field codes' },
    expected: {
      type: 'object',
      additionalProperties: { type: 'string' },
      description: 'Per field, what it takes, in the language of `msg` (`INVALID_PARAMETERS`)',
    },
    retryAt: { type: 'string', format: 'date-time', description: 'When a time-limited refusal ends' },
    scope: { type: 'string', description: 'The scope the call needs (`INSUFFICIENT_SCOPE`)' },
  },
  example: { status: 'error', code: 'NOT_FOUND', msg: errorCatalogue.NOT_FOUND.msg.en },
};

const rateHeaders: Json = {
  'RateLimit-Limit': { description: 'Calls allowed per window', schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'Calls left in this window', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Seconds until the window ends', schema: { type: 'integer' } },
};

const refusal = (description: string): Json => ({
  description,
  headers: rateHeaders,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

const retryAfter = { description: 'Seconds to wait', schema: { type: 'integer' } };

/** The refusals a route declares (`refuses`) beyond every route's, grouped by their catalogue status. */
function declaredRefusals(route: RouteDecl): Json {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of route.refuses ?? []) {
    const status = errorCatalogue[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries(
    [...byStatus].map(([status, codes]) => [
      String(status),
      refusal(codes.map((c) => `\`${c}\`: ${errorCatalogue[c].msg.en}`).join('; ')),
    ]),
  );
}

/** Merges two refusals of one status: both descriptions, one schema. */
function mergeRefusals(base: Json, extra: Json): Json {
  const out: Json = { ...base };
  for (const [status, answer] of Object.entries(extra)) {
    const had = out[status] as { description: string } | undefined;
    out[status] = had
      ? { ...had, description: `${had.description}; ${(answer as { description: string }).description}` }
      : answer;
  }
  return out;
}

/** What every token route may answer besides success (docs/api.md "Errors"). */
const refusals = (route: RouteDecl): Json => mergeRefusals(commonRefusals(route), declaredRefusals(route));

const commonRefusals = (route: RouteDecl): Json => ({
  ...(route.body || route.query
    ? { 400: refusal('Invalid input: `code` names the rule, `fields` the fields') }
    : {}),
  401: {
    ...refusal(
      'No token (`UNAUTHORIZED`), or a revoked, expired, unknown or malformed one (`TOKEN_INVALID`)',
    ),
    headers: { 'WWW-Authenticate': { schema: { type: 'string' } } },
  },
  403: refusal('The token lacks the scope this operation needs (`INSUFFICIENT_SCOPE`)'),
  404: refusal("Not found, or not in the token's team"),
  // A write that lost every retry to concurrent changes of the same item (decision Tr-C15).
  ...(route.method === 'GET'
    ? {}
    : {
        409: {
          ...refusal('Others are changing this right now (`BUSY`): nothing was written; send it again'),
          headers: { ...rateHeaders, 'Retry-After': retryAfter },
        },
      }),
  429: {
    ...refusal('Rate limit reached'),
    headers: { ...rateHeaders, 'Retry-After': retryAfter },
  },
});

/** `{name}` path parameters and the query's properties as OpenAPI parameters. */
function parameters(route: RouteDecl): Json[] {
  const out: Json[] = [];
  const add = (schema: z.ZodType | undefined, where: 'path' | 'query' | 'header') => {
    if (!schema) return;
    const json = schemaOf(schema, 'input') as { properties?: Record<string, Json>; required?: string[] };
    for (const [name, property] of Object.entries(json.properties ?? {})) {
      const { description, ...rest } = property as Json & { description?: string };
      out.push({
        name,
        in: where,
        required: where === 'path' || (json.required ?? []).includes(name),
        schema: rest,
        ...(description ? { description } : {}),
      });
    }
  };
  add(route.params, 'path');
  add(route.query, 'query');
  add(route.headers, 'header');
  return out;
}

const operationId = (route: RouteDecl) => route.op;

/** Operations are grouped by what their path ends in: a project, its issues, an issue's comments. */
const tagDescriptions = {
  Projects: "The token's team's projects (websites), with their labels and assignable members",
  Issues: 'Reported issues: list with filters and cursors, read with signed links, triage',
  Comments: "An issue's comments, internal or public",
  Filing: 'Filing issues as the widget does: upload the screenshots and files, then create the issue',
} as const;
function tagOf(route: RouteDecl): keyof typeof tagDescriptions {
  const words = route.path.split('/').filter((w) => w && !w.startsWith('{'));
  const last = words[words.length - 1];
  if (route.token === 'issues:create') return 'Filing';
  return last === 'comments' ? 'Comments' : last === 'issues' ? 'Issues' : 'Projects';
}

export interface DocumentInfo {
  title: string;
  version: string;
  description: string;
  /** The server's base (the dashboard's origin; the API lives under `/api/v1`). */
  serverUrl: string;
}

/** The document of `routes` (the `token` routes; others are left out). */
export function openApiDocument(routes: readonly RouteDecl[], info: DocumentInfo): Json {
  const paths: Record<string, Record<string, Json>> = {};
  for (const route of routes) {
    if (!route.token) continue;
    const method = route.method.toLowerCase();
    const success = route.method === 'POST' ? '201' : '200';
    const answer: Json = {
      type: 'object',
      required: ['status', 'msg'],
      properties: {
        status: { const: 'success' },
        msg: route.response ? schemaOf(route.response, 'output') : {},
      },
    };
    paths[route.path] ??= {};
    (paths[route.path] as Record<string, Json>)[method] = {
      operationId: operationId(route),
      summary: route.summary ?? route.op,
      tags: [tagOf(route)],
      security: [{ bearer: [route.token] }],
      'x-scope': route.token,
      parameters: parameters(route),
      ...(route.body
        ? {
            requestBody: {
              required: true,
              content: { 'application/json': { schema: schemaOf(route.body, 'input') } },
            },
          }
        : {}),
      responses: {
        [success]: {
          description: 'Success',
          headers: rateHeaders,
          content: { 'application/json': { schema: answer } },
        },
        // A retried create (the same Idempotency-Key and body) answers the first call's result with 200.
        ...(route.headers?.shape['Idempotency-Key'] && success === '201'
          ? {
              200: {
                description:
                  'The same Idempotency-Key and body as an earlier call: its answer; nothing new was filed',
                headers: rateHeaders,
                content: { 'application/json': { schema: answer } },
              },
            }
          : {}),
        ...refusals(route),
      },
    };
  }
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: { title: info.title, version: info.version, description: info.description },
    servers: [{ url: info.serverUrl }],
    tags: Object.entries(tagDescriptions).map(([name, description]) => ({ name, description })),
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'snag_pat_<id><secret>',
          description:
            "An API token made under the team's settings (OWNER or ADMIN), `snag_pat_…`, or a browser extension's " +
            'connection (`snag_ext_…`, acting as the member who connected it). Scopes: projects:read, issues:read, ' +
            'issues:write, comments:write, issues:create.',
        },
      },
      schemas: { Error: errorEnvelope },
    },
  };
}
