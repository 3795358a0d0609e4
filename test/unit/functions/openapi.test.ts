/**
 * The public API's OpenAPI 3.1 document (issue 25, docs/api.md) is built from the route table: every v1
 * route is a token route with a response schema (a route without one fails here, before it can ship
 * undocumented), the document passes a maintained OpenAPI validator, and it names every v1 operation
 * with its scope, parameters, request body and refusals.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '#contracts/openapi';
import { type RouteDecl, routeKey } from '#contracts/routes';
import { triageLimits } from '#contracts/triage';
import { v1Api } from '../../../functions/issues/manifest';
import { routes } from '../../../functions/routes';

const info = { title: 'Snag API', version: '1.0.0', description: 'test', serverUrl: 'https://app.example' };
const DOCUMENT_PATH = '/api/v1/openapi.json';

type Operation = {
  operationId: string;
  security: { bearer: string[] }[];
  parameters: { name: string; in: string; required: boolean }[];
  requestBody?: unknown;
  responses: Record<string, unknown>;
};
const doc = openApiDocument(v1Api.routes, info) as { paths: Record<string, Record<string, Operation>> };
const v1Routes = routes.filter((r) => r.path.startsWith('/api/v1/') && r.path !== DOCUMENT_PATH);

/** Why a v1 route could not be documented (nothing when it can). */
function undocumented(route: RouteDecl): string[] {
  const problems: string[] = [];
  if (!route.token) problems.push('no token scope');
  if (!route.response) problems.push('no response schema');
  if (route.session) problems.push('a session route');
  return problems;
}

describe('the OpenAPI document', () => {
  it.each(v1Routes.map((r) => [routeKey(r), r] as const))(
    '%s is a token route with a response schema',
    (_key, route) => {
      expect(undocumented(route)).toEqual([]);
    },
  );

  it('refuses a v1 route without a response schema', () => {
    const bare: RouteDecl = {
      method: 'GET',
      path: '/api/v1/x',
      op: 'x',
      session: false,
      token: 'issues:read',
    };
    expect(undocumented(bare)).toEqual(['no response schema']);
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(doc as unknown as Parameters<Validator['validate']>[0]);
    expect(result).toEqual({ valid: true });
    expect(validator.version).toBe('3.1');
  });

  it('documents every v1 operation with its scope, parameters, body and refusals', () => {
    for (const route of v1Routes) {
      const op = doc.paths[route.path]?.[route.method.toLowerCase()];
      expect(op, routeKey(route)).toBeDefined();
      if (!op) continue;
      expect(op.operationId).toBe(route.op);
      expect(op.security).toEqual([{ bearer: [route.token] }]);
      const names = op.parameters.filter((p) => p.in === 'path').map((p) => p.name);
      expect(names.sort()).toEqual([...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort());
      expect(op.requestBody !== undefined).toBe(route.body !== undefined);
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['401', '403', '404', '429']));
      // A write may lose every retry to concurrent changes: BUSY, to be sent again after Retry-After.
      expect('409' in op.responses, routeKey(route)).toBe(route.method !== 'GET');
    }
    const list = doc.paths['/api/v1/projects/{projectId}/issues']?.get;
    expect(list?.parameters.map((p) => p.name)).toEqual(
      expect.arrayContaining([
        'status',
        'priority',
        'assignee',
        'label',
        'sort',
        'search',
        'limit',
        'cursor',
      ]),
    );
    expect(JSON.stringify(doc)).not.toContain('$defs');
  });

  it("documents an issue's steps to reproduce and its replay link (additive: the list stays as it was)", () => {
    type Schema = { properties: Record<string, Schema>; required?: string[]; enum?: string[] } & Record<
      string,
      unknown
    >;
    const schemaOf = (path: string) => {
      const answer = doc.paths[path]?.get?.responses['200'] as
        | { content: { 'application/json': { schema: Schema } } }
        | undefined;
      if (!answer) throw new Error(`no 200 answer for ${path}`);
      const ok = answer.content['application/json'].schema;
      const msg = ok.properties.msg as Schema;
      const ref = typeof msg.$ref === 'string' ? msg.$ref.split('/').pop() : undefined;
      const schemas = (doc as unknown as { components: { schemas: Record<string, Schema> } }).components
        .schemas;
      return ref ? (schemas[ref] as Schema) : msg;
    };
    const text = JSON.stringify(doc);
    const issue = schemaOf('/api/v1/projects/{projectId}/issues/{number}');
    expect(issue.required).toEqual(expect.arrayContaining(['steps', 'replay']));
    expect(text).toContain('"title":"Step"');
    expect(text).toContain('"title":"Replay"');
    for (const kind of ['click', 'focus', 'change', 'submit', 'load', 'navigate', 'history', 'open'])
      expect(text).toContain(`"${kind}"`);
    expect(JSON.stringify(issue)).toMatch(/dataUrl/);
    expect(JSON.stringify(schemaOf('/api/v1/projects/{projectId}/issues'))).not.toMatch(/"steps"|"replay"/);
  });

  it("documents filing: the Idempotency-Key header, 201 and a retry's 200, and every refusal by its code", () => {
    type Op = Operation & { tags: string[]; responses: Record<string, { description: string }> };
    const create = doc.paths['/api/v1/projects/{projectId}/issues']?.post as Op | undefined;
    expect(create?.security).toEqual([{ bearer: ['issues:create'] }]);
    expect(create?.tags).toEqual(['Filing']);
    const header = create?.parameters.find((p) => p.in === 'header');
    expect(header).toMatchObject({ name: 'Idempotency-Key', in: 'header', required: false });
    expect((header as unknown as { schema: object }).schema).toMatchObject({
      type: 'string',
      minLength: 1,
      maxLength: 200,
    });
    expect(Object.keys(create?.responses ?? {})).toEqual(
      expect.arrayContaining(['200', '201', '400', '403', '409', '422']),
    );
    const described = (status: string) => create?.responses[status]?.description ?? '';
    expect(described('400')).toContain('INVALID_UPLOAD');
    expect(described('403')).toMatch(/INSUFFICIENT_SCOPE[\s\S]*PLAN_LIMIT[\s\S]*QUOTA_EXCEEDED/);
    expect(described('409')).toContain('IDEMPOTENCY_IN_PROGRESS');
    expect(described('422')).toContain('IDEMPOTENCY_KEY_REUSED');
    // Only the create is idempotent: the other POSTs have no header and no 200.
    const upload = doc.paths['/api/v1/projects/{projectId}/uploads']?.post as Op | undefined;
    expect(upload?.parameters.some((p) => p.in === 'header')).toBe(false);
    expect(Object.keys(upload?.responses ?? {})).toEqual(expect.arrayContaining(['201', '413', '415']));
    expect('200' in (upload?.responses ?? {})).toBe(false);
    expect(doc.paths['/api/v1/projects/{projectId}/widget']?.get?.security).toEqual([
      { bearer: ['issues:create'] },
    ]);
    // The create's body: the widget's report under the v1 names, unknown fields refused.
    const body = (
      create!.requestBody as { content: { 'application/json': { schema: Record<string, unknown> } } }
    ).content['application/json'].schema;
    expect(Object.keys(body.properties as object)).toEqual(
      expect.arrayContaining(['title', 'description', 'reporterEmail', 'pageUrl', 'screenshots', 'files']),
    );
    expect(body.additionalProperties).toBe(false);
  });

  it("documents a comment's length as the one limit the API enforces", () => {
    const post = doc.paths['/api/v1/projects/{projectId}/issues/{number}/comments']?.post as
      | {
          requestBody: {
            content: { 'application/json': { schema: { properties: Record<string, object> } } };
          };
        }
      | undefined;
    const body = post?.requestBody.content['application/json'].schema.properties.body;
    expect(body).toMatchObject({ type: 'string', minLength: 1, maxLength: triageLimits.commentMax });
  });
});
