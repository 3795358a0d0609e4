/** The integration entity's rules (functions/integrations/integrations.ts) and shared contracts. */
import { describe, expect, it } from 'vitest';
import type { DeliveryContext } from '../../../functions/integrations/deliver';
import { issueMail } from '../../../functions/integrations/email';
import {
  allowedByPlan,
  defaultIntegration,
  integrationsAnswer,
  maskIntegration,
  mergeInput,
} from '../../../functions/integrations/integrations';
import { fileLinkToken, verifyFileLink } from '../../../functions/integrations/links';
import {
  activeRequirement,
  integrationSaveSchema,
  isLoopbackHttp,
  isMasked,
  maskSecret,
  syncRequestSchema,
  webhooksDataSchema,
} from '../../../functions/shared/integrations';

const token = 'glpat-abcdefghijklmnopqrstuvwxyz';

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
    expect(view.data).toEqual({ host: '', key: '••••wxyz', id: '7' });
  });

  it('keeps the stored secret when the dashboard sends the masked value back', () => {
    const stored = {
      ...defaultIntegration('webhooks'),
      data: { url: 'https://a.example/h', token: 'secret-token-123456' },
    };
    const masked = maskSecret('secret-token-123456');
    expect(isMasked(masked)).toBe(true);
    const kept = mergeInput(stored, {
      name: 'webhooks',
      active: 1,
      data: { url: 'https://A.example/h/', token: masked },
    });
    expect(kept.data).toEqual({ url: 'https://A.example/h/', token: 'secret-token-123456' });
    // Toward another receiver the stored secret is not sent: it must be typed again.
    expect(() =>
      mergeInput(stored, {
        name: 'webhooks',
        active: 1,
        data: { url: 'https://b.example/h', token: masked },
      }),
    ).toThrow(
      expect.objectContaining({ code: 'INVALID_PARAMETERS', fields: { 'data.token': 'SECRET_REQUIRED' } }),
    );
    const changed = mergeInput(stored, {
      name: 'webhooks',
      active: 1,
      data: { url: 'https://b.example/h', token: 'new' },
    });
    expect(changed.data).toMatchObject({ token: 'new' });
  });

  it('lets only GitLab and Jira set authorized from the dashboard', () => {
    const slack = mergeInput(defaultIntegration('slack'), {
      name: 'slack',
      active: 1,
      authorized: 1,
      data: { id: 'C1', name: '' },
    });
    expect(slack.authorized).toBe(0);
    const gitlab = mergeInput(defaultIntegration('gitlab'), {
      name: 'gitlab',
      active: 1,
      authorized: 1,
      data: { host: '', key: 'k', id: '1' },
    });
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
      ['webhooks', false, 0],
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
  it('escapes every visitor value in the HTML part', () => {
    const evil = '<img src=x onerror=alert(1)>';
    const ctx = {
      issue: {
        number: 4,
        title: evil,
        createdAt: '',
        msg: evil,
        data: { href: evil, username: evil, customFields: [{ name: evil, value: evil }] },
        files: [],
        screenshots: [],
        logs: [],
      },
      project: { name: evil },
      integration: {
        ...defaultIntegration('email'),
        data: { email: 'a@b.example', cc: [], contactFields: [] },
      },
      issueUrl: 'http://localhost/profile/site/p/ticket/4',
      screenshots: [],
      files: [{ name: 'f', label: evil, type: 't', size: 1, url: 'https://x.example/?a="b"' }],
    } as unknown as DeliveryContext<'email'>;
    const mail = issueMail(ctx);
    expect(mail.html).not.toContain('<img');
    expect(mail.html).not.toContain('"b"');
    expect(mail.text).toContain(evil);
    expect(mail.subject).not.toContain('\n');
  });
});
