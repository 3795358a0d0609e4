/**
 * Trello's pure rules (issue 36): the client's requests against the vendor's own spec
 * (../shared/api-specs/trello), the neutraliser of visitor text read the way the fake reads Trello's
 * Markdown, the webhook signature (the README's computed vector), and the adapter's reading of deliveries.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { DeliveryIssue } from '../../../functions/integrations/deliver';
import {
  trelloCode,
  trelloDescription,
  trelloFenced,
  trelloInert,
  trelloTitle,
} from '../../../functions/integrations/deliverers/trello';
import type { IntegrationRecord } from '../../../functions/integrations/integration';
import { MalformedDelivery } from '../../../functions/integrations/sync/adapter';
import { trelloAdapter } from '../../../functions/integrations/sync/trello';
import {
  TRELLO_TOLERANCE_MS,
  trelloSignature,
  verifyTrelloSignature,
} from '../../../functions/integrations/sync/verify';
import type { Http } from '../../../functions/integrations/vendors/http';
import * as trello from '../../../functions/integrations/vendors/trello';
import { trelloActions } from '../../../lib/local/vendors/trello';

interface SpecParam {
  name: string;
  in: string;
  required?: boolean;
}
const spec = JSON.parse(
  readFileSync(
    // Copied from ../shared/api-specs/trello into test/fixtures so that a clone alone runs the suite.
    new URL('../../fixtures/trello/trello-openapi.EXCERPTS.json', import.meta.url),
    'utf8',
  ),
) as { paths: Record<string, Record<string, { parameters?: SpecParam[] }>> };

/** The spec's operation for a request, its path matched with `{x}` as one segment. */
function operationOf(method: string, url: URL) {
  const path = url.pathname.replace(/^\/1/, '');
  for (const [template, ops] of Object.entries(spec.paths)) {
    const re = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    const op = ops[method.toLowerCase()];
    if (re.test(path) && op) return op;
  }
  return undefined;
}

interface Sent {
  method: string;
  url: URL;
  body: unknown;
}
/** An Http that records each request and answers `reply`. */
function recording(reply: unknown) {
  const sent: Sent[] = [];
  const http: Http = async (input, init = {}) => {
    sent.push({ method: init.method ?? 'GET', url: new URL(String(input)), body: init.body });
    return new Response(JSON.stringify(reply), { headers: { 'content-type': 'application/json' } });
  };
  return { http, sent };
}

const auth = { base: 'https://api.trello.com/1', key: 'appkey0123', token: 'tok-secret' };
const ID = '5abbe4b7ddc1b351ef961414';

describe('Trello client requests, against the spec', () => {
  it('every call is a spec operation with only its declared query parameters, key and token included', async () => {
    const { http, sent } = recording({
      id: ID,
      idList: ID,
      closed: false,
      shortUrl: 'https://trello.com/c/x',
    });
    await trello.createCard(http, auth, { list: ID, name: 'n', desc: 'd' });
    await trello.getCard(http, auth, ID);
    await trello.moveCard(http, auth, ID, ID);
    await trello.archiveCard(http, auth, ID);
    await trello.commentCard(http, auth, ID, 'hi');
    await trello.createWebhook(http, auth, {
      callbackURL: 'https://snag.example/api/hooks/trello/x',
      idModel: ID,
    });
    const list = recording([{ id: ID, name: 'A' }]);
    await trello.listBoards(list.http, auth);
    await trello.listLists(list.http, auth, ID);
    await trello.attachmentNames(list.http, auth, ID);
    for (const req of [...sent, ...list.sent]) {
      const where = `${req.method} ${req.url.pathname}`;
      const op = operationOf(req.method, req.url);
      expect(op, where).toBeDefined();
      const declared = new Set((op?.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name));
      for (const name of req.url.searchParams.keys())
        if (name !== 'key' && name !== 'token') expect(declared.has(name), `${where} ?${name}`).toBe(true);
      for (const p of op?.parameters ?? [])
        if (p.in === 'query' && p.required)
          expect(req.url.searchParams.has(p.name), `${where} ${p.name}`).toBe(true);
      // The spec's security: APIKey and APIToken as query parameters.
      expect(req.url.searchParams.get('key'), where).toBe(auth.key);
      expect(req.url.searchParams.get('token'), where).toBe(auth.token);
    }
    expect(sent.map((s) => `${s.method} ${s.url.pathname}`)).toEqual([
      `POST /1/cards`,
      `GET /1/cards/${ID}`,
      `PUT /1/cards/${ID}`,
      `PUT /1/cards/${ID}`,
      `POST /1/cards/${ID}/actions/comments`,
      'POST /1/webhooks/',
    ]);
    expect(Object.fromEntries(sent[0]?.url.searchParams ?? [])).toMatchObject({
      idList: ID,
      name: 'n',
      desc: 'd',
    });
    expect(sent[2]?.url.searchParams.get('idList')).toBe(ID);
    expect(sent[3]?.url.searchParams.get('closed')).toBe('true');
    expect(Object.fromEntries(sent[5]?.url.searchParams ?? [])).toMatchObject({
      callbackURL: 'https://snag.example/api/hooks/trello/x',
      idModel: ID,
    });
  });

  it('attaches a file as a multipart `file` part with its name and type (the spec’s query `file` cannot carry bytes)', async () => {
    const { http, sent } = recording({ id: ID });
    await trello.attachFile(http, auth, ID, {
      name: 'screenshot-1.png',
      type: 'image/png',
      data: new Uint8Array([1, 2]),
    });
    const form = sent[0]?.body as FormData;
    expect(sent[0]?.url.pathname).toBe(`/1/cards/${ID}/attachments`);
    expect(operationOf('POST', sent[0]?.url as URL)).toBeDefined();
    expect(form.get('name')).toBe('screenshot-1.png');
    expect(form.get('mimeType')).toBe('image/png');
    expect((form.get('file') as File).size).toBe(2);
  });

  it('keeps Trello’s text limits and refuses an answer that is not a card', async () => {
    const { http, sent } = recording({ id: ID });
    await trello.createCard(http, auth, { list: ID, name: 'x'.repeat(20_000), desc: 'y'.repeat(20_000) });
    expect(sent[0]?.url.searchParams.get('desc')).toHaveLength(trello.TRELLO_TEXT_MAX);
    const bad = recording({ nope: true });
    await expect(trello.createCard(bad.http, auth, { list: ID, name: 'n', desc: '' })).rejects.toThrow(
      /unexpected card/,
    );
  });
});

const issue = (msg: string, title = '') => ({
  number: 7,
  title,
  msg,
  data: { href: 'https://shop.example/?@board', username: '<@123> @everyone' },
  steps: [],
});
// biome-ignore lint/suspicious/noExplicitAny: the deliverer reads only these fields.
const ctxOf = (msg: string): any => ({
  issue: issue(msg),
  issueUrl: 'https://app.snag.example/profile/site/p/ticket/7',
  files: [
    {
      label: '[x](javascript:alert(1)) @card.pdf',
      url: 'https://snag.example/f',
      size: 1,
      type: 'application/pdf',
      name: 'f',
    },
  ],
  replay: null,
});

describe('Trello neutraliser', () => {
  const hostile = [
    '@everyone and @board, <@123456> <@&42>',
    '[click](javascript:alert(1)) ![img](https://evil.example/x.png)',
    '<script>alert(1)</script><img src=x onerror=alert(1)>',
    'https://evil.example www.evil.example',
    '@\u200bboard @\u2060card e\u200bvil @\u202eboard',
    '```\n@board\n```\n~~~\n@card',
  ];

  it('leaves nothing in the description that mentions or links, but Snag’s own links', () => {
    for (const text of hostile) {
      const desc = trelloDescription(ctxOf(text), 1);
      const acted = trelloActions(desc);
      expect(acted.mentions, text).toEqual([]);
      expect(
        acted.links.filter((l) => !l.startsWith('https://snag.example/f') && !l.includes('/ticket/7')),
        text,
      ).toEqual([]);
    }
  });

  it('fences text longer than any backtick run, and code spans survive backticks', () => {
    expect(trelloFenced('a ```` b')).toBe('`````\na ```` b\n`````');
    expect(trelloCode('a `b` c')).toBe('`` a `b` c ``');
    expect(trelloCode('two\nlines')).toBe('` two lines `');
  });

  it('makes a card name that reads the same but mentions and links nothing, invisible characters gone', () => {
    for (const text of hostile) {
      const name = trelloTitle(issue('', text.split('\n')[0] ?? '') as unknown as DeliveryIssue);
      const acted = trelloActions(name, false);
      expect([acted.mentions, acted.links], name).toEqual([[], []]);
      expect(name).not.toMatch(/[\u200B\u202E]/);
    }
    expect(trelloInert('@board https://x.example')).toBe('@\u2060board https:/\u2060/x.example');
  });
});

describe('Trello webhook signature', () => {
  const url = 'https://snag.example/api/hooks/trello/abc';
  const now = Date.parse('2026-11-29T10:00:00.000Z');
  const body = (date = '2026-11-29T09:59:00.000Z') =>
    JSON.stringify({ action: { id: 'a1', date }, model: {} });

  it('is the README’s computed vector: base64 HMAC-SHA1 of the body followed by the callback URL', () => {
    expect(trelloSignature('secret', '{"hello":"world"}', 'https://example.com/webhooks')).toBe(
      'FwPAcuGe9EP/+SbXFWjnEVTa0zw=',
    );
  });

  it('holds for the app secret and this callback URL only; a stale action is refused after the signature', () => {
    const raw = body();
    const sig = trelloSignature('app-secret', raw, url);
    expect(verifyTrelloSignature(sig, 'app-secret', raw, url, now)).toBe('ok');
    expect(verifyTrelloSignature(sig, 'other', raw, url, now)).toBe('forged');
    expect(verifyTrelloSignature(sig, 'app-secret', raw, `${url}/`, now)).toBe('forged');
    expect(verifyTrelloSignature(sig, 'app-secret', `${raw} `, url, now)).toBe('forged');
    expect(verifyTrelloSignature(undefined, 'app-secret', raw, url, now)).toBe('forged');
    expect(verifyTrelloSignature(sig, '', raw, url, now)).toBe('forged');
    const old = body(new Date(now - TRELLO_TOLERANCE_MS - 1000).toISOString());
    expect(verifyTrelloSignature(trelloSignature('app-secret', old, url), 'app-secret', old, url, now)).toBe(
      'stale',
    );
  });
});

describe('Trello deliveries as the sync reads them', () => {
  const BOARD = 'b00000000000000000000001';
  const integration = {
    data: { board: BOARD, list: 'l1', doneList: 'l3', key: 'k', token: 't', secret: 's' },
  } as unknown as IntegrationRecord<'trello'>;
  const delivery = (type: string, data: Record<string, unknown>) => ({
    action: {
      id: 'act1',
      type,
      date: '2026-11-29T10:00:00.000Z',
      memberCreator: { id: 'm1', fullName: 'Jane Doe' },
      data: { card: { id: 'card1', shortLink: 'Ab1' }, board: { id: BOARD }, ...data },
    },
  });

  it('a move or an archive is a state change, a comment a comment, a rename or another board nothing', () => {
    expect(trelloAdapter.parse(delivery('updateCard', { old: { idList: 'l1' } }), {}, integration)).toEqual({
      deliveryId: 'act1',
      kind: 'state',
      issue: 'card1',
      url: 'https://trello.com/c/Ab1',
      author: { id: 'm1', name: 'Jane Doe' },
    });
    expect(
      trelloAdapter.parse(delivery('updateCard', { old: { closed: false } }), {}, integration)?.kind,
    ).toBe('state');
    expect(trelloAdapter.parse(delivery('commentCard', { text: 'Fixed' }), {}, integration)).toMatchObject({
      kind: 'comment',
      comment: { id: 'act1', body: 'Fixed' },
    });
    expect(trelloAdapter.parse(delivery('updateCard', { old: { name: 'x' } }), {}, integration)).toBeNull();
    expect(trelloAdapter.parse(delivery('createCard', {}), {}, integration)).toBeNull();
    expect(
      trelloAdapter.parse(delivery('commentCard', { text: 'x', board: { id: 'other' } }), {}, integration),
    ).toBeNull();
  });

  it('refuses what is not a Trello delivery', () => {
    for (const body of [null, {}, { action: { id: 1 } }, { action: { id: 'a', type: 'x', data: {} } }])
      expect(() => trelloAdapter.parse(body, {}, integration), JSON.stringify(body)).toThrow(
        MalformedDelivery,
      );
    expect(() => trelloAdapter.parse(delivery('commentCard', {}), {}, integration)).toThrow(
      MalformedDelivery,
    );
  });
});
