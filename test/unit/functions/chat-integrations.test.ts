/**
 * Microsoft Teams and Discord (issue 36), the pure parts: the neutralisers against hostile visitor text,
 * every card Snag builds validated against the Adaptive Card schema 1.5.0 (ajv, draft-06), the Discord
 * message within Discord's limits with nothing that pings, the clients' requests as the specs shape them
 * (URL, headers, body, 429 with `retry_after`, refusals), and the URL rules of the save.
 */
import { describe, expect, it } from 'vitest';
import {
  CHAT_MASK,
  discordDataSchema,
  discordWebhookParts,
  teamsDataSchema,
} from '#contracts/chat-integrations';
import { MASK, maskSecret } from '#contracts/integrations';
import {
  discordLine,
  discordText,
  fitted,
  teamsText,
  unlinked,
} from '../../../functions/integrations/chat-text';
import type { DeliveryContext } from '../../../functions/integrations/deliver';
import { PermanentFailure } from '../../../functions/integrations/deliver';
import { discordMessage } from '../../../functions/integrations/deliverers/discord';
import { teamsCard } from '../../../functions/integrations/deliverers/teams';
import {
  DiscordUnavailable,
  discordLimits,
  executeUrl,
  executeWebhook,
} from '../../../functions/integrations/vendors/discord';
import { postTeamsMessage, teamsMessage } from '../../../functions/integrations/vendors/teams';
import { adaptiveCardErrors } from '../../../lib/local/vendors/adaptive-card';
import { hostileSteps } from '../../support/reproduction';

/** Visitor text written to act in a chat channel. */
const hostile = [
  '@everyone @here look',
  '<@123456789012345678> <#123456789012345678> <@&123456789012345678> <@!123456789012345678>',
  '[Reset your password](javascript:alert(1)) [x](https://evil.example)',
  '```js\nfetch("https://evil.example")\n```',
  '<at>Jane</at> <b>bold</b> <script>alert(1)</script>',
  '# Heading\n> quote\n- list\n-# subtext ||spoiler|| **bold** __u__ ~~s~~',
  '@\u200Beveryone @\u2060here <\u200B@123456789012345678>',
  'https://evil.example www.evil.example discord.gg/abc',
  'invoice\u202Egpj.exe',
].join('\n');

const created = '2026-11-29T10:00:00.000Z';
const shot = (i: number, type = 'png') => ({
  name: `s${i}`,
  label: `screenshot-${i}.${type}`,
  type,
  size: 100,
  url: `https://app.example/api/files/tok${i}`,
});
const ctxOf = (over: { msg?: string; screenshots?: unknown[]; replay?: boolean; big?: boolean } = {}) =>
  ({
    issue: {
      number: 42,
      title: '',
      msg: over.msg ?? hostile,
      createdAt: created,
      sentAt: null,
      data: {
        href: 'https://shop.example/cart?q=@everyone',
        username: '<@1234567890123> [me](https://evil.example)',
        browser: 'Firefox',
        browserVersion: '120',
        os: 'macOS',
        deviceType: 'Desktop',
        screenResolution: '1440x900',
        customFields: Array.from({ length: over.big ? 30 : 1 }, (_, i) => ({
          name: `@here field ${i}`,
          value: `[x](javascript:alert(${i})) ${'y'.repeat(over.big ? 480 : 5)}`,
        })),
      },
      files: [],
      screenshots: [],
      logs: [],
      steps: hostileSteps(created),
    },
    issueUrl: 'https://app.example/profile/site/p1/ticket/42',
    screenshots: over.screenshots ?? [shot(1), shot(2, 'webm'), shot(3)],
    files: [
      {
        name: 'f1',
        label: '[evil](https://evil.example) @everyone.pdf',
        type: 'application/pdf',
        size: 9,
        url: 'https://app.example/api/files/f1',
      },
    ],
    replay: over.replay === false ? null : { url: 'https://app.example/replay/tok', start: 0, end: 60_000 },
  }) as unknown as DeliveryContext<'teams'> & DeliveryContext<'discord'>;

/** What Discord would act on in Markdown text: mentions, tags, masked links, autolinks, code. */
const discordActs = (s: string) =>
  [
    /@(?:everyone|here)/.test(s) && 'mass mention',
    /<[@#/]/.test(s) && 'mention or tag',
    /(?<!\\)\[[^\]]*(?<!\\)\]\(/.test(s) && 'masked link',
    /https?:\/\//.test(s) && 'autolink',
    /(?<!\\)`/.test(s) && 'code',
    /^(?:#|>|-)/m.test(s) && 'block markup',
    /[\u200B\u202E]/.test(s) && 'invisible character',
  ].filter(Boolean);

describe('the chat neutralisers', () => {
  it('Discord: no mention, tag, masked link, autolink, code or block markup survives; the words stay', () => {
    const out = discordText(hostile);
    expect(discordActs(out)).toEqual([]);
    expect(out.replace(/[\\\u2060]/g, '')).toContain('@everyone @here look');
    expect(out.replace(/[\\\u2060]/g, '')).toContain('Reset your password');
    expect(discordActs(discordLine(hostile))).toEqual([]);
    expect(discordLine('a\nb')).toBe('a b');
  });

  it('Teams: no mention, tag, autolink or invisible trick survives; no escape shows', () => {
    const out = teamsText(hostile);
    expect(out).not.toMatch(/@(?:everyone|here)|<at>|<@|https?:\/\/|www\.e|[\u200B\u202E]/);
    expect(out).not.toContain('\\');
    expect(out.replace(/\u2060/g, '')).toContain('[Reset your password](javascript:alert(1))');
  });

  it('removes zero-width and bidi characters before the rules, so none hides a mention', () => {
    expect(unlinked('@\u200Beveryone')).toBe('@\u2060everyone');
    expect(unlinked('a\u202Eb\uFEFFc\u0007d')).toBe('abcd');
  });

  it('never leaves half an escape when it cuts', () => {
    expect(fitted('ab\\*cd', 4)).toBe('ab…');
    expect(fitted('abcdef', 4)).toBe('abc…');
    expect(fitted('abc', 4)).toBe('abc');
  });
});

describe('the Teams card', () => {
  const cards = [
    teamsCard(ctxOf()),
    teamsCard(ctxOf({ msg: '', screenshots: [], replay: false })),
    teamsCard(ctxOf({ screenshots: [shot(1, 'webm')], big: true })),
    teamsCard(ctxOf({ msg: '\u0000'.repeat(10) + 'x'.repeat(20_000) })),
  ];

  it.each(cards.map((c, i) => [i, c] as const))(
    'card %i is a valid Adaptive Card 1.5 (Microsoft’s schema)',
    (_, card) => {
      expect(adaptiveCardErrors(card)).toEqual([]);
    },
  );

  it('the validator is not a rubber stamp: an unknown property or a TextBlock without text fails', () => {
    const card = teamsCard(ctxOf());
    expect(adaptiveCardErrors({ ...card, msteams: { width: 'Full' } })).not.toEqual([]);
    expect(adaptiveCardErrors({ ...card, body: [{ type: 'TextBlock' }] })).not.toEqual([]);
  });

  it('puts visitor text only in TextRuns (never Markdown), inert; the screenshot as an image; buttons to Snag and the replay', () => {
    const card = teamsCard(ctxOf());
    const json = JSON.stringify(card);
    expect(json).not.toContain('"TextBlock"');
    expect(json).not.toContain('"FactSet"');
    const runs = card.body
      .flatMap((b) => (b.inlines as { text: string }[] | undefined) ?? [])
      .map((r) => r.text);
    for (const text of runs) expect(text).not.toMatch(/@(?:everyone|here)|<at>|<@|:\/\/|[\u200B\u202E]/);
    expect(runs.join('\n')).toContain('Steps to reproduce');
    expect(card.body.filter((b) => b.type === 'Image')).toEqual([
      expect.objectContaining({ url: 'https://app.example/api/files/tok1' }),
    ]);
    expect(card.actions).toEqual([
      { type: 'Action.OpenUrl', title: 'Open in Snag', url: 'https://app.example/profile/site/p1/ticket/42' },
      { type: 'Action.OpenUrl', title: 'Watch the replay', url: 'https://app.example/replay/tok' },
    ]);
    // Every link in the card is one Snag made: the issue, the replay, a signed file link.
    const urls = [...json.matchAll(/"url":"([^"]+)"/g)].map((m) => m[1]);
    for (const u of urls) expect(u).toMatch(/^https:\/\/app\.example\//);
    expect(card.fallbackText).toBe('New issue #42 in Snag');
  });

  it('is posted in the envelope of the Workflows example', async () => {
    const sent: { url: string; init: RequestInit }[] = [];
    const http = (async (url: string, init: RequestInit) => {
      sent.push({ url, init });
      return new Response(null, { status: 202 });
    }) as never;
    const url = 'https://prod.westeurope.logic.azure.com/workflows/x/triggers/manual/paths/invoke?sig=s';
    expect(await postTeamsMessage(http, url, teamsMessage(teamsCard(ctxOf())))).toBe(202);
    const body = JSON.parse(String(sent[0]?.init.body));
    expect(body).toMatchObject({
      type: 'message',
      attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive', contentUrl: null }],
    });
    expect(body.attachments[0].content.type).toBe('AdaptiveCard');
    expect(sent[0]?.url).toBe(url);
    expect((sent[0]?.init.headers as Record<string, string> | undefined)?.['content-type']).toBe(
      'application/json',
    );
  });

  it('a refused URL or card is permanent; an outage or a rate limit is retried', async () => {
    const answering = (status: number) => (async () => new Response('x', { status })) as never;
    const msg = teamsMessage(teamsCard(ctxOf()));
    for (const s of [400, 401, 403, 404, 410])
      await expect(postTeamsMessage(answering(s), 'https://x.example', msg)).rejects.toBeInstanceOf(
        PermanentFailure,
      );
    for (const s of [429, 500, 502])
      await expect(postTeamsMessage(answering(s), 'https://x.example', msg)).rejects.not.toBeInstanceOf(
        PermanentFailure,
      );
  });
});

describe('the Discord message', () => {
  it('one embed: title linking to Snag, inert description and fields, the screenshot as its image, nothing that pings', () => {
    const m = discordMessage(ctxOf());
    expect(m.allowed_mentions).toEqual({ parse: [] });
    expect(m.content).toBe('New issue #42');
    const [e] = m.embeds;
    expect(e?.url).toBe('https://app.example/profile/site/p1/ticket/42');
    expect(e?.image).toEqual({ url: 'https://app.example/api/files/tok1' });
    expect(discordActs(e?.title ?? '')).toEqual([]);
    expect(discordActs(e?.description ?? '')).toEqual([]);
    for (const f of e?.fields ?? []) {
      expect(discordActs(f.name), f.name).toEqual([]);
      // Snag's own masked links (files, replay) are the only links: to Snag's signed URLs.
      const withoutSnagLinks = f.value.replace(/\[[\w ]+\]\(https:\/\/app\.example\/[^)\s]+\)/g, '');
      expect(discordActs(withoutSnagLinks), f.value).toEqual([]);
    }
    const names = (e?.fields ?? []).map((f) => f.name);
    expect(names).toEqual(
      expect.arrayContaining(['Page', 'Device', 'Steps to reproduce', 'Watch the replay']),
    );
  });

  it('stays within Discord’s limits however long the report', () => {
    const m = discordMessage(ctxOf({ msg: 'x'.repeat(10_000), big: true }));
    const [e] = m.embeds;
    expect(e?.title.length).toBeLessThanOrEqual(discordLimits.title);
    expect(e?.description?.length).toBeLessThanOrEqual(discordLimits.description);
    expect(e?.fields?.length).toBeLessThanOrEqual(discordLimits.fields);
    for (const f of e?.fields ?? []) {
      expect(f.name.length).toBeLessThanOrEqual(discordLimits.fieldName);
      expect(f.value.length).toBeLessThanOrEqual(discordLimits.fieldValue);
      expect(f.value.length).toBeGreaterThan(0);
    }
    const total =
      (e?.title.length ?? 0) +
      (e?.description?.length ?? 0) +
      (e?.footer?.text.length ?? 0) +
      (e?.fields ?? []).reduce((n, f) => n + f.name.length + f.value.length, 0);
    expect(total).toBeLessThanOrEqual(discordLimits.total);
  });
});

describe('the Discord client', () => {
  const pasted = 'https://discord.com/api/webhooks/112233445566778899/abcdefghijklmnopqrstuvwxyz_-0123';

  it('posts to the versioned execute URL with wait=true, JSON, no Authorization header', async () => {
    expect(executeUrl(pasted)).toBe(
      'https://discord.com/api/v10/webhooks/112233445566778899/abcdefghijklmnopqrstuvwxyz_-0123?wait=true',
    );
    expect(executeUrl(`${pasted}?thread_id=998877665544`)).toMatch(/\?wait=true&thread_id=998877665544$/);
    const sent: { url: string; init: RequestInit }[] = [];
    const http = (async (url: string, init: RequestInit) => {
      sent.push({ url, init });
      return Response.json({ id: '555666777888', channel_id: '444' });
    }) as never;
    expect(await executeWebhook(http, pasted, discordMessage(ctxOf()))).toEqual({
      id: '555666777888',
      channelId: '444',
    });
    const headers = (sent[0]?.init.headers ?? {}) as Record<string, string>;
    expect(headers['content-type']).toBe('application/json');
    expect(Object.keys(headers).map((h) => h.toLowerCase())).not.toContain('authorization');
    expect(JSON.parse(String(sent[0]?.init.body)).allowed_mentions).toEqual({ parse: [] });
  });

  it('waits out a short 429 once (its retry_after), leaves a long one to the queue', async () => {
    let calls = 0;
    const limited = (after: number) =>
      (async () => {
        calls += 1;
        return calls === 1
          ? Response.json(
              { message: 'You are being rate limited.', retry_after: after, global: false },
              { status: 429 },
            )
          : Response.json({ id: '1', channel_id: '2' });
      }) as never;
    expect(await executeWebhook(limited(0.05), pasted, discordMessage(ctxOf()))).toEqual({
      id: '1',
      channelId: '2',
    });
    expect(calls).toBe(2);
    calls = 0;
    const err = await executeWebhook(limited(30), pasted, discordMessage(ctxOf())).catch((e) => e);
    expect(err).toBeInstanceOf(DiscordUnavailable);
    expect(err.retryAfterSeconds).toBe(30);
    expect(calls).toBe(1);
  });

  it('a deleted webhook (404) or a refused body is permanent; an outage is retried', async () => {
    const answering = (status: number) => (async () => Response.json({ code: 10015 }, { status })) as never;
    for (const s of [400, 401, 403, 404])
      await expect(executeWebhook(answering(s), pasted, discordMessage(ctxOf()))).rejects.toBeInstanceOf(
        PermanentFailure,
      );
    await expect(executeWebhook(answering(502), pasted, discordMessage(ctxOf()))).rejects.toBeInstanceOf(
      DiscordUnavailable,
    );
    expect(() => executeUrl('https://evil.example/api/webhooks/1/2')).toThrow(PermanentFailure);
  });
});

describe('the URL rules of the save', () => {
  it('Discord: only a Discord webhook URL (or the masked one read back, or the local fake)', () => {
    const ok = [
      'https://discord.com/api/webhooks/112233445566778899/abcdefghijklmnopqrstuvwxyz',
      'https://discordapp.com/api/webhooks/112233445566778899/abcdefghijklmnopqrstuvwxyz',
      'https://ptb.discord.com/api/v10/webhooks/112233445566778899/abcdefghijklmnopqrstuvwxyz?thread_id=123456',
      'http://127.0.0.1:4100/api/webhooks/112233445566778899/abcdefghijklmnopqrstuvwxyz',
      '',
      maskSecret('https://discord.com/api/webhooks/1/x'),
    ];
    const bad = [
      'http://discord.com/api/webhooks/112233445566778899/abcdefghijklmnopqrstuvwxyz',
      'https://discord.com.evil.example/api/webhooks/112233445566778899/abcdefghijklmnopqrstuvwxyz',
      'https://evil.example/api/webhooks/112233445566778899/abcdefghijklmnopqrstuvwxyz',
      'https://discord.com/api/webhooks/112233445566778899/abcdefghijklmnopqrstuvwxyz/../../x',
      'https://user:pw@discord.com/api/webhooks/112233445566778899/abcdefghijklmnopqrstuvwxyz',
      'https://discord.com:8443/api/webhooks/112233445566778899/abcdefghijklmnopqrstuvwxyz',
      'http://10.0.0.1/api/webhooks/112233445566778899/abcdefghijklmnopqrstuvwxyz',
      '••••not-a-mask-but-long',
    ];
    for (const url of ok) expect(discordDataSchema.safeParse({ url }).success, url).toBe(true);
    for (const url of bad) expect(discordDataSchema.safeParse({ url }).success, url).toBe(false);
    expect(discordWebhookParts(ok[0] ?? '')).toMatchObject({ id: '112233445566778899' });
  });

  it('Teams: any https URL without credentials in it, or the local fake', () => {
    for (const url of [
      'https://prod-12.westeurope.logic.azure.com:443/workflows/abc/triggers/manual/paths/invoke?api-version=2016-06-01&sig=x',
      'https://default0a1b.environment.api.powerplatform.com/powerautomate/automations/direct/workflows/x/triggers/manual/paths/invoke?sig=y',
      'http://localhost:4200/workflows/x/triggers/manual/paths/invoke?sig=z',
    ])
      expect(teamsDataSchema.safeParse({ url }).success, url).toBe(true);
    for (const url of [
      'http://example.com/hook',
      'https://u:p@example.com/',
      'javascript:alert(1)',
      'ftp://x.example',
    ])
      expect(teamsDataSchema.safeParse({ url }).success, url).toBe(false);
  });

  it('writes the mask as integrations.ts does', () => {
    expect(CHAT_MASK).toBe(MASK);
  });
});
