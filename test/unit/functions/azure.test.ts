/**
 * Azure DevOps' pure parts: the client's requests against the vendor's own spec (../shared/api-specs/
 * azure-devops: each call's method and path a spec operation's, `api-version` as the README says, the PAT
 * as Basic with an empty user, JSON Patch bodies of the spec's operations); the HTML neutraliser with
 * hostile visitor text; the service hook's secret and age check; the payload reduction on the docs samples.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DeliveryContext } from '../../../functions/integrations/deliver';
import { azureDescription, azureText } from '../../../functions/integrations/deliverers/azure';
import type { IntegrationRecord } from '../../../functions/integrations/integration';
import {
  AZURE_MAX_AGE_MS,
  azureAdapter,
  azureHtmlText,
  verifyAzureSecret,
} from '../../../functions/integrations/sync/azure';
import * as azure from '../../../functions/integrations/vendors/azure';
import type { Http } from '../../../functions/integrations/vendors/http';
import { htmlActions } from '../../../lib/local/vendors/azure';

// The vendor's spec excerpts, copied from ../shared/api-specs/azure-devops into test/fixtures so that a clone
// alone runs the suite.
const specs = join(__dirname, '../../fixtures/azure-devops');
const read = (f: string) => JSON.parse(readFileSync(join(specs, f), 'utf8'));
const spec = [
  read('wit-7.1/workItemTracking.EXCERPTS.json'),
  read('hooks-7.1/serviceHooks.EXCERPTS.json'),
  read('core-7.1/core.EXCERPTS.json'),
];
/** Every operation of the three specs as a method and a path pattern (`{x}` one segment, `$` literal). */
const operations = spec.flatMap((s) =>
  Object.entries({ ...s.paths, ...s['x-ms-paths'] } as Record<string, Record<string, unknown>>).flatMap(
    ([path, ops]) =>
      Object.keys(ops)
        .filter((m) => m !== 'parameters')
        .map((method) => ({
          method: method.toUpperCase(),
          path,
          re: new RegExp(
            `^${path
              .replace(/\?.*$/, '')
              .replace(/\$/g, '\\$')
              .replace(/\{[^}]+\}/g, '[^/]+')}$`,
            'i',
          ),
        })),
  ),
);
const opOf = (method: string, pathname: string) =>
  operations.find((o) => o.method === method && o.re.test(pathname));

const PAT = 'pat-0123456789';
const auth = { base: 'https://dev.azure.com/fabrikam', token: PAT };
const PROJECT = '6ce954b1-ce1f-45d1-b94d-e6bf2464ba2c';

/** A recording `Http` answering each call with `answer(url)`. */
function recorder(answer: (url: URL, init: RequestInit) => unknown) {
  const calls: { url: URL; init: RequestInit }[] = [];
  const http: Http = async (input, init = {}) => {
    const url = new URL(String(input));
    calls.push({ url, init });
    return new Response(JSON.stringify(answer(url, init)), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  };
  return { calls, http };
}

describe('the Azure DevOps client against the spec', () => {
  it('every call is a spec operation, with api-version 7.1 (comments 7.1-preview.4) and Basic ":PAT"', async () => {
    const { calls, http } = recorder((url) => {
      if (url.pathname.endsWith('/_apis/projects'))
        return { count: 1, value: [{ id: PROJECT, name: 'Web' }] };
      if (url.pathname.endsWith('/workitemtypes'))
        return { count: 1, value: [{ name: 'Bug', fields: [{ referenceName: azure.REPRO_STEPS }] }] };
      if (url.pathname.endsWith('/states'))
        return { count: 1, value: [{ name: 'Closed', category: 'Completed' }] };
      if (url.pathname.endsWith('/attachments'))
        return { id: 'a', url: 'https://dev.azure.com/fabrikam/_apis/wit/attachments/a' };
      if (url.pathname.endsWith('/comments')) return { id: 7 };
      if (url.pathname.endsWith('/subscriptions')) return { id: 's1' };
      return { id: 5, fields: { 'System.State': 'New', 'System.WorkItemType': 'Bug' } };
    });
    expect(await azure.listProjects(http, auth)).toEqual([{ id: PROJECT, name: 'Web' }]);
    expect(await azure.listTypes(http, auth, PROJECT)).toEqual([
      { name: 'Bug', descriptionField: azure.REPRO_STEPS },
    ]);
    await azure.listStates(http, auth, PROJECT, 'User Story');
    await azure.uploadAttachment(http, auth, PROJECT, {
      name: 'shot 1.png',
      type: 'image/png',
      data: new Uint8Array([1, 2]),
    });
    await azure.createWorkItem(http, auth, PROJECT, 'User Story', [azure.field('System.Title', 'T')]);
    await azure.getWorkItem(http, auth, PROJECT, '5');
    await azure.updateWorkItem(http, auth, PROJECT, '5', [azure.field('System.State', 'Closed')]);
    await azure.addComment(http, auth, PROJECT, '5', '<p>x</p>');
    await azure.createSubscription(http, auth, {
      projectId: PROJECT,
      type: 'Bug',
      eventType: 'workitem.updated',
      url: 'https://snag.example/api/hooks/azure/abc',
      secret: 's3cret',
    });
    expect(calls).toHaveLength(9);
    const hdr = (i: number) => (calls[i]?.init.headers ?? {}) as Record<string, string>;
    for (const { url, init } of calls) {
      const method = init.method ?? 'GET';
      expect(opOf(method, url.pathname), `${method} ${url.pathname}`).toBeDefined();
      const comments = url.pathname.endsWith('/comments');
      expect(url.searchParams.get('api-version')).toBe(comments ? '7.1-preview.4' : '7.1');
      const headers = init.headers as Record<string, string>;
      expect(headers.authorization).toBe(`Basic ${Buffer.from(`:${PAT}`).toString('base64')}`);
    }
    // `$` literal before the type, a space encoded; the attachment's name in the query, raw bytes.
    expect(calls[4]?.url.pathname).toBe(`/fabrikam/${PROJECT}/_apis/wit/workitems/$User%20Story`);
    expect(calls[2]?.url.pathname).toBe(`/fabrikam/${PROJECT}/_apis/wit/workitemtypes/User%20Story/states`);
    expect(calls[3]?.url.searchParams.get('fileName')).toBe('shot 1.png');
    expect(hdr(3)['content-type']).toBe('application/octet-stream');
    // JSON Patch bodies: the spec's JsonPatchOperation (op from its enum, a path, a value).
    const opEnum = spec[0].definitions.JsonPatchOperation.properties.op.enum as string[];
    for (const i of [4, 6]) {
      expect(hdr(i)['content-type']).toBe('application/json-patch+json');
      for (const op of JSON.parse(String(calls[i]?.init.body))) {
        expect(opEnum).toContain(op.op);
        expect(op.path).toMatch(/^\/(fields\/[\w.]+|relations\/-)$/);
      }
    }
    expect(JSON.parse(String(calls[8]?.init.body))).toMatchObject({
      publisherId: 'tfs',
      eventType: 'workitem.updated',
      resourceVersion: '1.0',
      consumerId: 'webHooks',
      consumerActionId: 'httpRequest',
      publisherInputs: { projectId: PROJECT, workItemType: 'Bug', changedFields: 'System.State' },
      consumerInputs: {
        url: 'https://snag.example/api/hooks/azure/abc',
        httpHeaders: 'X-Snag-Secret:s3cret',
      },
    });
  });

  it('an HTML answer (Azure’s sign-in page for some refused tokens) is a permanent refusal, not a parse error', async () => {
    const http: Http = async () =>
      new Response('<html>Sign in</html>', { status: 203, headers: { 'content-type': 'text/html' } });
    await expect(azure.listProjects(http, auth)).rejects.toMatchObject({ vendor: 'azure', permanent: true });
  });
});

describe('visitor text as inert HTML', () => {
  const hostile = [
    '<script>alert(1)</script>',
    '<img src=x onerror=alert(1)>',
    '<a href="javascript:alert(1)">click</a>',
    '[x](javascript:alert(1))',
    '@everyone @here <@123>',
    'see #42',
    'https://evil.example/login',
    'a\u200Bb\u202Egnp.exe\uFEFF',
    '&lt;b&gt; &#60;i&#62;',
  ];

  it('makes no tag, link, mention or work item link, and drops hidden characters', () => {
    for (const text of hostile) {
      const html = azureText(text);
      expect(htmlActions(html), text).toEqual({ links: [], mentions: [], tags: [] });
      expect(html).not.toMatch(/[\u200B\u202E\uFEFF]/);
      // Reads the same once the joiners are taken out and the entities decoded.
      expect(azureHtmlText(html).replace(/\u2060/g, '')).toBe(text.replace(/[\u200B\u202E\uFEFF]/g, ''));
    }
  });

  it('the description links only Snag’s signed addresses and the attachments, never the visitor’s', () => {
    const ctx = {
      issue: {
        number: 3,
        title: '',
        msg: hostile.join('\n'),
        steps: [{ t: 1, kind: 'click', label: '<b onclick=x>@all</b>' }],
        createdAt: new Date(10_000).toISOString(),
        sentAt: 10_000,
        data: {
          href: 'javascript:alert(1)',
          username: '@all',
          customFields: [{ name: 'Plan<', value: '#1' }],
        },
      },
      issueUrl: 'https://app.snag.example/profile/site/p/ticket/3',
      screenshots: [
        {
          name: 's',
          label: 'screenshot-1.png',
          type: 'png',
          size: 1,
          url: 'https://api.snag.example/api/files/s',
        },
      ],
      files: [{ name: 'f', label: '<x>.pdf', type: 'application/pdf', size: 1, url: 'javascript:alert(1)' }],
      replay: null,
    } as unknown as DeliveryContext;
    const html = azureDescription(ctx, [
      { name: 'screenshot-1.png', url: 'https://dev.azure.com/fabrikam/_apis/wit/attachments/a' },
    ]);
    const acted = htmlActions(html);
    expect(acted.mentions).toEqual([]);
    expect(acted.links).toEqual([
      'https://dev.azure.com/fabrikam/_apis/wit/attachments/a',
      'https://api.snag.example/api/files/s',
      '#',
      'https://app.snag.example/profile/site/p/ticket/3',
    ]);
    // Snag's own markup only: the visitor's <script>, <img onerror>, <b onclick> stay text.
    const ours = ['a', 'br', 'em', 'h3', 'img', 'li', 'ol', 'p', 'strong', 'ul'];
    expect(acted.tags.filter((t) => !ours.includes(t))).toEqual([]);
    expect(html).not.toMatch(/<(script|b)\b/);
  });
});

describe('service hook deliveries', () => {
  const secret = 'a'.repeat(32);
  const now = Date.parse('2026-11-29T12:00:00Z');
  const body = (createdDate: unknown) => JSON.stringify({ id: 'e1', createdDate });

  it('the secret header or the basic-auth password, compared whole; then a recent createdDate', () => {
    const fresh = body(new Date(now - 60_000).toISOString());
    expect(verifyAzureSecret({ 'x-snag-secret': secret }, secret, fresh, now)).toBe('ok');
    const basic = `Basic ${Buffer.from(`any:${secret}`).toString('base64')}`;
    expect(verifyAzureSecret({ authorization: basic }, secret, fresh, now)).toBe('ok');
    expect(verifyAzureSecret({ 'x-snag-secret': `${secret}x` }, secret, fresh, now)).toBe('forged');
    expect(verifyAzureSecret({ 'x-snag-secret': secret.slice(1) }, secret, fresh, now)).toBe('forged');
    expect(verifyAzureSecret({}, secret, fresh, now)).toBe('forged');
    expect(verifyAzureSecret({ 'x-snag-secret': '' }, '', fresh, now)).toBe('forged');
    const old = body(new Date(now - AZURE_MAX_AGE_MS - 1000).toISOString());
    expect(verifyAzureSecret({ 'x-snag-secret': secret }, secret, old, now)).toBe('stale');
    expect(
      verifyAzureSecret(
        { 'x-snag-secret': secret },
        secret,
        body(new Date(now + 3_600_000).toISOString()),
        now,
      ),
    ).toBe('stale');
    expect(verifyAzureSecret({ 'x-snag-secret': secret }, secret, body(undefined), now)).toBe('stale');
  });

  it('reduces the docs samples: a state change of work item 5 and a comment, by their authors', () => {
    const integration = {
      data: { id: 'be9b3917-87e6-42a4-a549-2bc06a7a878f' },
    } as IntegrationRecord<'azure'>;
    const updated = read('service-hooks/workitem.updated.sample.json');
    expect(azureAdapter.parse(updated, {}, integration)).toEqual({
      deliveryId: '27646e0e-b520-4d2b-9411-bba7524947cd',
      kind: 'state',
      issue: '5',
      author: { id: 'Jamal Hartnett', name: 'Jamal Hartnett' },
    });
    const commented = read('service-hooks/workitem.commented.sample.json');
    expect(azureAdapter.parse(commented, {}, integration)).toMatchObject({
      kind: 'comment',
      issue: '5',
      comment: { body: 'This is a great new idea' },
      author: { name: 'Jamal Hartnett' },
    });
    // Another project's, and an update that does not change the state, are not Snag's business.
    const other = { ...updated, resourceContainers: { project: { id: 'x' } } };
    expect(azureAdapter.parse(other, {}, integration)).toBeNull();
    const title = { ...updated, resource: { ...updated.resource, fields: { 'System.Title': {} } } };
    expect(azureAdapter.parse(title, {}, integration)).toBeNull();
    expect(() => azureAdapter.parse({ id: 'x' }, {}, integration)).toThrow();
  });
});
