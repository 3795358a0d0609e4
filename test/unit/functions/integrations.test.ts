/** The integration entity's rules (functions/integrations/integration.ts) and shared contracts. */
import { describe, expect, it } from 'vitest';
import {
  activeRequirement,
  deliveredUrl,
  integrationInputSchema,
  integrationSaveSchema,
  isLoopbackHttp,
  isMasked,
  maskSecret,
  resolveFlag,
  syncRequestSchema,
  webhooksDataSchema,
} from '#contracts/integrations';
import { resetConfig, VENDOR_FAKES_VARIABLE } from '#runtime/config';
import type { DeliveryContext } from '../../../functions/integrations/deliver';
import { issueMail } from '../../../functions/integrations/email';
import {
  allowedByPlan,
  defaultIntegration,
  integrationsAnswer,
  maskIntegration,
  mergeInput,
} from '../../../functions/integrations/integration';
import { fileLinkToken, verifyFileLink } from '../../../functions/integrations/links';
import { stepSentences } from '../../../functions/integrations/steps';
import { eventPayload } from '../../../functions/integrations/webhook-events';
import { webhookPayload } from '../../../functions/integrations/webhooks';
import { hostileStepSentences, hostileSteps, storedReplay } from '../../support/reproduction';

const token = 'glpat-abcdefghijklmnopqrstuvwxyz';
/** A save body's entry as the API parses it. */
const input = (entry: unknown) => integrationInputSchema.parse(entry);

describe('integration rules', () => {
  it('masks secrets: never the whole value, at most the last 4 characters', () => {
    expect(maskSecret(token)).toBe('••••wxyz');
    expect(maskSecret('short')).toBe('••••');
    expect(maskSecret('')).toBe('');
    const view = maskIntegration(
      {
        name: 'gitlab',
        active: 1,
        authorized: 1,
        data: { host: '', key: token, id: '7' },
        oauth: { accessToken: 'x' },
      },
      true,
    );
    expect(JSON.stringify(view)).not.toContain(token);
    expect(JSON.stringify(view)).not.toContain('accessToken');
    expect(view.data).toEqual({ host: '', key: '••••wxyz', id: '7', active: 1, authorized: 1 });
  });

  it('names the local vendor fake an integration talks to, and never outside the local stage', () => {
    const saved = { stage: process.env.SNAG_STAGE, fakes: process.env[VENDOR_FAKES_VARIABLE] };
    const view = (stage: string) => {
      process.env.SNAG_STAGE = stage;
      resetConfig();
      return Object.fromEntries(integrationsAnswer({}, 'FREE_PLAN').map((v) => [v.name, v.fake]));
    };
    try {
      process.env[VENDOR_FAKES_VARIABLE] = JSON.stringify({ gitlab: 'http://127.0.0.1:4100' });
      expect(view('local')).toMatchObject({
        gitlab: 'http://127.0.0.1:4100',
        email: undefined,
        jira: undefined,
      });
      expect(Object.values(view('prod')).filter(Boolean)).toEqual([]);
      delete process.env[VENDOR_FAKES_VARIABLE];
      expect(Object.values(view('local')).filter(Boolean)).toEqual([]);
    } finally {
      for (const [key, value] of [
        ['SNAG_STAGE', saved.stage],
        [VENDOR_FAKES_VARIABLE, saved.fakes],
      ] as const)
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      resetConfig();
    }
  });

  it('keeps the stored secret when the dashboard sends the masked value back', () => {
    const stored = {
      ...defaultIntegration('webhooks'),
      data: { url: 'https://a.example/h', token: 'secret-token-123456' },
    };
    const masked = maskSecret('secret-token-123456');
    expect(isMasked(masked)).toBe(true);
    const kept = mergeInput(
      stored,
      input({
        name: 'webhooks',
        active: 1,
        data: { url: 'https://A.example/h/', token: masked },
      }),
    );
    expect(kept.data).toEqual({ url: 'https://A.example/h/', token: 'secret-token-123456' });
    // Toward another receiver the stored secret is not sent: it must be typed again.
    expect(() =>
      mergeInput(
        stored,
        input({
          name: 'webhooks',
          active: 1,
          data: { url: 'https://b.example/h', token: masked },
        }),
      ),
    ).toThrow(
      expect.objectContaining({ code: 'INVALID_PARAMETERS', fields: { 'data.token': 'SECRET_REQUIRED' } }),
    );
    const changed = mergeInput(
      stored,
      input({
        name: 'webhooks',
        active: 1,
        data: { url: 'https://b.example/h', token: 'new' },
      }),
    );
    expect(changed.data).toMatchObject({ token: 'new' });
  });

  it('takes SPEC’s shape (flags inside data) and the dashboard’s (beside it); with both, the changed copy wins', () => {
    const parse = (entry: unknown) => integrationSaveSchema.safeParse([entry]);
    const stored = { ...defaultIntegration('gitlab'), data: { host: '', key: 'k', id: '1' } };
    const spec = input({ name: 'gitlab', data: { active: 1, authorized: 1, host: '', key: 'k', id: '1' } });
    expect(spec.data).toEqual({ host: '', key: 'k', id: '1' });
    expect(mergeInput(stored, spec)).toMatchObject({ active: 1, authorized: 1 });
    const beside = input({ name: 'gitlab', active: 1, data: { host: '', key: 'k', id: '1' } });
    expect(mergeInput(stored, beside)).toMatchObject({ active: 1, authorized: 0 });
    // A client sends back the answer it read (both copies 0) with one copy switched on: either way it is on.
    const viaTop = input({ name: 'gitlab', active: 1, data: { ...stored.data, active: 0 } });
    const viaData = input({ name: 'gitlab', active: 0, data: { ...stored.data, active: 1 } });
    expect(mergeInput(stored, viaTop).active).toBe(1);
    expect(mergeInput(stored, viaData).active).toBe(1);
    expect(mergeInput({ ...stored, active: 1 }, viaTop).active).toBe(0);
    expect(resolveFlag({ beside: 1 }, 0)).toBe(1);
    expect(resolveFlag({}, 0)).toBeUndefined();
    const none = parse({ name: 'email', data: { email: 'a@b.example' } });
    expect(none.success).toBe(false);
    expect(none.error?.issues[0]?.path).toEqual([0, 'data', 'active']);
    expect(parse({ name: 'email', data: { active: 2, email: '' } }).success).toBe(false);
  });

  it('lets only GitLab and Jira set authorized from the dashboard', () => {
    const slack = mergeInput(
      defaultIntegration('slack'),
      input({
        name: 'slack',
        active: 1,
        authorized: 1,
        data: { id: 'C1', name: '' },
      }),
    );
    expect(slack.authorized).toBe(0);
    const gitlab = mergeInput(
      defaultIntegration('gitlab'),
      input({
        name: 'gitlab',
        active: 1,
        authorized: 1,
        data: { host: '', key: 'k', id: '1' },
      }),
    );
    expect(gitlab.authorized).toBe(1);
  });

  it('requires the email address and the webhook URL while active; webhooks are https only', () => {
    expect(activeRequirement('email', { email: '', cc: [] })).toEqual({
      field: 'email',
      code: 'INVALID_EMAIL',
    });
    expect(activeRequirement('email', { email: 'a@b.example' })).toBeNull();
    expect(activeRequirement('webhooks', { url: '' })?.field).toBe('url');
    expect(
      integrationSaveSchema.safeParse([{ name: 'webhooks', active: 1, data: { url: 'http://a.example/h' } }])
        .success,
    ).toBe(false);
    expect(
      integrationSaveSchema.safeParse([{ name: 'webhooks', active: 1, data: { url: 'https://a.example/h' } }])
        .success,
    ).toBe(true);
    expect(
      integrationSaveSchema.safeParse([
        {
          name: 'email',
          active: 1,
          data: { email: 'a@b.example', cc: ['1@x.example', '2@x.example', '3@x.example', '4@x.example'] },
        },
      ]).success,
    ).toBe(false);
    expect(integrationSaveSchema.safeParse([]).success).toBe(false);
    expect(
      syncRequestSchema.safeParse({
        tickets: Array.from({ length: 51 }, (_, i) => String(i + 1)),
        type: 'email',
      }).success,
    ).toBe(false);
    expect(syncRequestSchema.parse({ tickets: ['3', '12'], type: 'jira' }).tickets).toEqual([3, 12]);
  });

  it('admits http only for a loopback receiver, the form only the local stack accepts', () => {
    const url = (u: string) => webhooksDataSchema.shape.url.safeParse(u).success;
    for (const ok of ['http://127.0.0.1:4010/hook', 'http://localhost:3000/a/b?c=1', 'http://localhost'])
      expect(url(ok), ok).toBe(true);
    for (const refused of [
      'http://10.0.0.1/hook',
      'http://localhost.evil.example/hook',
      'http://127.0.0.1.nip.io/',
      'http://[::1]/hook',
      'ftp://localhost/',
      'http://localhost:3000/a b',
    ])
      expect(url(refused), refused).toBe(false);
    expect(isLoopbackHttp('http://127.0.0.1:4010/hook')).toBe(true);
    expect(isLoopbackHttp('https://127.0.0.1/hook')).toBe(false);
  });

  it('gates everything but email on the plan', () => {
    expect(allowedByPlan('email', 'FREE_PLAN')).toBe(true);
    expect(allowedByPlan('webhooks', 'FREE_PLAN')).toBe(false);
    expect(allowedByPlan('webhooks', 'BASIC_PLAN')).toBe(true);
    const answer = integrationsAnswer({}, 'FREE_PLAN');
    expect(answer.map((i) => [i.name, i.available, i.active])).toEqual([
      ['email', true, 0],
      ['gitlab', false, 0],
      ['jira', false, 0],
      ['slack', false, 0],
      ['asana', false, 0],
      ['github', false, 0],
      ['linear', false, 0],
      ['webhooks', false, 0],
      ['clickup', false, 0],
      ['teams', false, 0],
      ['discord', false, 0],
      ['azure', false, 0],
      ['trello', false, 0],
    ]);
  });
});

describe('file links', () => {
  it('verifies its own token, refuses a forged or expired one', async () => {
    process.env.ALTCHA_HMAC_KEY ??= 'unit-test-altcha-key-0123456789';
    const t = await fileLinkToken({ p: 'p1', k: 'file', n: 'x.png' }, 0);
    expect(await verifyFileLink(t, 1000)).toMatchObject({ p: 'p1', k: 'file', n: 'x.png' });
    expect(await verifyFileLink(t, 9 * 24 * 3600 * 1000)).toBeNull();
    const [payload] = t.split('.');
    const forged = `${Buffer.from(JSON.stringify({ p: 'p2', k: 'file', n: 'x.png', e: 9e9 })).toString('base64url')}.${t.split('.')[1]}`;
    expect(await verifyFileLink(forged, 1000)).toBeNull();
    expect(await verifyFileLink(`${payload}.AAAA`, 1000)).toBeNull();
  });
});

describe('email deliverer', () => {
  const evil = '<img src=x onerror=alert(1)>';
  const context = (screenshots: unknown[] = []) =>
    ({
      issue: {
        number: 4,
        title: evil,
        createdAt: '',
        msg: evil,
        data: { href: evil, username: evil, customFields: [{ name: evil, value: evil }] },
        files: [],
        screenshots: [],
        logs: [],
        steps: [],
      },
      project: { id: 'p1', name: evil },
      integration: {
        ...defaultIntegration('email'),
        data: { email: 'a@b.example', cc: [], contactFields: [] },
      },
      issueUrl: 'http://localhost/profile/site/p/ticket/4',
      screenshots,
      files: [{ name: 'f', label: evil, type: 't', size: 1, url: 'https://x.example/?a="b"' }],
      replay: null,
    }) as unknown as DeliveryContext<'email'>;

  it('escapes every visitor value in the HTML part', () => {
    const mail = issueMail(context());
    expect(mail.html).not.toContain('<img');
    expect(mail.html).not.toContain('"b"');
    expect(mail.text).toContain(evil);
    expect(mail.subject).not.toContain('\n');
  });

  it('is styled like the account mails, previews the first screenshot through its signed link, in the owner’s language', () => {
    const shot = {
      name: 's',
      label: 'screenshot-1.png',
      type: 'png',
      size: 1,
      url: 'https://app.example/api/files/tok"en',
    };
    const video = { ...shot, type: 'webm', url: 'https://app.example/api/files/video' };
    const en = issueMail(context([video, shot]), 'en');
    expect(en.html).toMatch(/^<!doctype html>/);
    expect(en.html).toContain('background:#4F4EAE');
    expect(en.html).toContain('>Snag</p>');
    expect(en.html).toContain(
      '<img src="https://app.example/api/files/tok&#34;en" alt="Screenshot of the page"',
    );
    expect(en.html).not.toContain('<img src="https://app.example/api/files/video"');
    expect(en.text).toContain('(links valid 8 days)');
    expect(en.text).not.toMatch(/7 days/);
    expect(en.html).toContain('/profile/integrations/p1/email');
    const de = issueMail(context([shot]), 'de');
    expect(de.text).toMatch(/^Neue Meldung #4 für/);
    expect(de.html).toContain('In Snag öffnen');
    expect(de.text).toContain('(Links 8 Tage gültig)');
    expect(issueMail(context(), 'en').html).not.toContain('<img');
    // Where each recipient changes it: members on their profile (Tr-N8), the address on the integration.
    expect(en.text).toContain('Team members choose under Profile → Email notifications');
    expect(de.text).toContain('Teammitglieder wählen unter Profil → E-Mail-Benachrichtigungen');
  });
});

describe('steps to reproduce: the targets the widget named by role', () => {
  const sentAt = Date.parse('2026-11-23T20:00:00.000Z');
  const steps = [
    { t: sentAt - 9000, kind: 'click' as const, label: 'button "Pay now"' },
    { t: sentAt - 8000, kind: 'focus' as const, label: 'field "Email"' },
    { t: sentAt - 7000, kind: 'change' as const, label: 'list "Country"' },
    { t: sentAt - 6000, kind: 'click' as const, label: 'div "Promo"' },
  ];
  const issue = { steps, createdAt: '2026-11-23T20:00:00.000Z', sentAt };
  const plain = { text: (l: string) => l };

  it("say the role in the reader's language, quote only the page's name, and let a field's sentence name the field", () => {
    expect(stepSentences(issue, plain, 'en')).toEqual([
      'Clicked button “Pay now” (9 s before the report)',
      'Moved into the field “Email” (8 s before the report)',
      'Changed the field “Country” (7 s before the report)',
      'Clicked “div "Promo"” (6 s before the report)',
    ]);
    expect(stepSentences(issue, plain, 'de')).toEqual([
      'Schaltfläche „Pay now“ angeklickt (9 s vor der Meldung)',
      'In das Feld „Email“ gewechselt (8 s vor der Meldung)',
      'Das Feld „Country“ geändert (7 s vor der Meldung)',
      '„div "Promo"“ angeklickt (6 s vor der Meldung)',
    ]);
  });

  it("a tracker's code span holds only the page's name", () => {
    const code = { code: (l: string) => `\` ${l} \`` };
    expect(stepSentences(issue, code, 'en')[0]).toBe('Clicked button ` Pay now ` (9 s before the report)');
  });
});

describe('steps to reproduce and the replay link in the mail and the webhook payload', () => {
  const createdAt = '2026-11-23T20:00:00.000Z';
  const replay = { ...storedReplay(createdAt), url: 'https://app.example/replay/t"ok' };
  const context = (withSteps: boolean) =>
    ({
      issue: {
        number: 4,
        title: 'Cart',
        createdAt,
        msg: 'Broken',
        data: {},
        files: [],
        screenshots: [],
        logs: [],
        steps: withSteps ? hostileSteps(createdAt) : [],
        replay: withSteps ? storedReplay(createdAt) : null,
      },
      project: { id: 'p1', name: 'Shop', url: 'https://shop.example' },
      integration: {
        ...defaultIntegration('email'),
        data: { email: 'a@b.example', cc: [], contactFields: [] },
      },
      issueUrl: 'http://localhost/profile/site/p/ticket/4',
      deliveryId: 'p1:4:webhooks',
      screenshots: [],
      files: [],
      replay: withSteps ? { url: replay.url, start: replay.start, end: replay.end } : null,
    }) as unknown as DeliveryContext<'email'> & DeliveryContext<'webhooks'>;

  it('the mail numbers the steps, escapes their labels in HTML, links the replay, in both languages', () => {
    const en = issueMail(context(true), 'en');
    expect(en.text).toContain(
      `Steps to reproduce:\n${hostileStepSentences.map((s, i) => `${i + 1}. ${s}`).join('\n')}`,
    );
    expect(en.text).toContain(
      `Watch the replay: ${replay.url}\nThe last 60 s on the page before the report; the link works for 8 days.`,
    );
    expect(en.html).toContain('<li>Clicked “@channel &#60;!here&#62; @all” (30 s before the report)</li>');
    expect(en.html).toContain('&#60;b&#62;bold&#60;/b&#62;');
    expect(en.html).not.toMatch(/<b>|<!here>|href="javascript/);
    expect(en.html).toContain(`<a href="https://app.example/replay/t&#34;ok">Watch the replay</a>`);
    const de = issueMail(context(true), 'de');
    expect(de.text).toContain(
      'Schritte zum Nachstellen:\n1. Die Seite https://shop.example/checkout geladen (40 s vor der Meldung)',
    );
    expect(de.text).toContain('2. „@channel <!here> @all“ angeklickt (30 s vor der Meldung)');
    expect(de.text).toContain('7. Das Feedback-Widget geöffnet (1 s vor der Meldung)');
    expect(de.html).toContain('>Aufzeichnung ansehen</a>');
    // Without steps or a replay the mail says nothing of either.
    const plain = issueMail(context(false), 'en');
    expect(plain.text).not.toMatch(/Steps to reproduce|replay/);
    expect(plain.html).not.toMatch(/Steps to reproduce|replay|<ol>/);
  });

  it("measures a step's time before the report on the visitor's clock, however far it is from the server's", () => {
    // The visitor's clock is 5 minutes slow: the steps and the send time are on it, the creation is not.
    const slow = 5 * 60_000;
    const ctx = context(true);
    const skewed = {
      ...ctx,
      issue: {
        ...ctx.issue,
        steps: ctx.issue.steps.map((step) => ({ ...step, t: step.t - slow })),
        sentAt: Date.parse(createdAt) - slow,
      },
    } as typeof ctx;
    expect(issueMail(skewed, 'en').html).toContain(
      '<li>Clicked “@channel &#60;!here&#62; @all” (30 s before the report)</li>',
    );
    // Against the server's creation instead, every step would read 5 minutes earlier.
    expect(
      issueMail({ ...skewed, issue: { ...skewed.issue, sentAt: null } } as typeof ctx, 'en').html,
    ).toContain('(5 min 30 s before the report)');
  });

  it('the webhook payload gains structured steps and the replay (null without), nothing else changes', () => {
    const full = webhookPayload(context(true));
    expect(full.issue.steps).toEqual(hostileSteps(createdAt));
    expect(full.issue.replay).toEqual({ url: replay.url, start: replay.start, end: replay.end });
    const plain = webhookPayload(context(false));
    expect(plain.issue.steps).toEqual([]);
    expect(plain.issue.replay).toBeNull();
    expect(Object.keys(plain.issue)).toEqual([
      'number',
      'title',
      'description',
      'createdAt',
      'url',
      'page',
      'reporter',
      'device',
      'customFields',
      'screenshots',
      'files',
      'steps',
      'replay',
    ]);
  });
});

describe('webhook event payloads', () => {
  const ctx = {
    project: { id: '00000000-0000-4000-8000-000000000000', name: 'Shop', url: 'https://shop.example' },
    issue: { number: 7, title: 'Cart', url: 'https://app.example/7' },
  };
  const at = '2026-11-28T10:00:00.000Z';
  it("name an API token's creator and, only then, the token (issue 25, additive)", () => {
    const actor = { kind: 'token' as const, id: 'Hl6lEwlLdDHQ', name: 'Grace Hopper', token: 'CI' };
    const changes = { priority: { from: 'none', to: 'high' } };
    const updated = eventPayload(ctx, { type: 'issue.updated', actor, at, changes }, null);
    expect(updated?.actor).toEqual({ kind: 'token', name: 'Grace Hopper', token: 'CI' });
    const comment = {
      id: 'c'.repeat(20),
      body: 'Fixed',
      visibility: 'public' as const,
      author: actor,
      createdAt: at,
    };
    const created = eventPayload(ctx, { type: 'comment.created', actor, at, commentId: comment.id }, comment);
    expect(created).toMatchObject({ actor: { token: 'CI' }, comment: { author: 'Grace Hopper' } });
    const member = { kind: 'member' as const, id: 'u', name: 'Ada' };
    expect(eventPayload(ctx, { type: 'issue.updated', actor: member, at, changes }, null)?.actor).toEqual({
      kind: 'member',
      name: 'Ada',
    });
  });
});

describe('the link to a delivered item', () => {
  it('keeps only an http(s) address of at most 2,000 characters: the vendor answered it', () => {
    expect(deliveredUrl('https://github.com/octo-org/shop/issues/12')).toBe(
      'https://github.com/octo-org/shop/issues/12',
    );
    expect(deliveredUrl('http://localhost:4010/snag/website/-/issues/1')).toBe(
      'http://localhost:4010/snag/website/-/issues/1',
    );
    for (const hostile of [
      'javascript:alert(1)',
      'JAVASCRIPT:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox',
      '//evil.example/x',
      '/relative',
      'not a url',
      '',
      `https://x.example/${'a'.repeat(2000)}`,
      42,
      null,
      undefined,
    ]) {
      expect(deliveredUrl(hostile), String(hostile).slice(0, 40)).toBeUndefined();
    }
  });
});
