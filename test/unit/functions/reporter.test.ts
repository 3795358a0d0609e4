/**
 * The reporter's pure parts (issue 24): the texts of all six languages (same keys and placeholders as
 * English, none left in English), the status as the reporter reads it, the page's escaping, contrast and
 * CSP (the inline script and style allowed by exactly their hashes), the `/r/{token}` rewrite, the From
 * name's encoding, and which events owe the reporter a mail.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { contrastRatio, readableOn } from '#contracts/contrast';
import { reporterPagePath, reporterStatusOf, reporterTokenParam } from '#contracts/reporter';
import { fromWithName } from '#runtime/mail';
import { newReporterToken } from '../../../functions/issues/reporter';
import { owedBy } from '../../../functions/issues/reporter-events';
import { statusNews } from '../../../functions/issues/reporter-flush';
import { reporterMail } from '../../../functions/issues/reporter-mails';
import { langOfHeader, notFoundPage, statusPage } from '../../../functions/issues/reporter-page';
import { reporterComment } from '../../../functions/issues/reporter-status';
import { fill, reporterTexts } from '../../../functions/issues/reporter-texts';

const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('the reporter texts', () => {
  const en = reporterTexts.en;
  it.each(['cs', 'fr', 'de', 'ru', 'es'] as const)(
    '%s has every English key, its placeholders, and its own words',
    (lang) => {
      const t = reporterTexts[lang];
      expect(Object.keys(t).sort()).toEqual(Object.keys(en).sort());
      for (const [key, text] of Object.entries(en) as [keyof typeof en, string][]) {
        expect(t[key].trim(), `${lang}.${key}`).not.toBe('');
        expect(placeholders(t[key]), `${lang}.${key}`).toEqual(placeholders(text));
      }
      // Short words may coincide ("Status" in German); whole sentences never do.
      const same = (Object.keys(en) as (keyof typeof en)[]).filter(
        (k) => t[k] === en[k] && en[k].length > 12,
      );
      expect(same).toEqual([]);
    },
  );
});

describe('the status as the reporter reads it', () => {
  it('is Received, Being worked on or Resolved', () => {
    expect(reporterStatusOf('new')).toBe('received');
    expect(reporterStatusOf('in_progress')).toBe('working');
    expect(reporterStatusOf('in_review')).toBe('working');
    expect(reporterStatusOf('resolved')).toBe('resolved');
    expect(reporterStatusOf('closed')).toBe('resolved');
  });
});

describe('tokens and the page address', () => {
  it('mints 128-bit base64url tokens that the route accepts, and rewrites only /r/{token}', () => {
    const a = newReporterToken();
    expect(a).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(Buffer.from(a, 'base64url')).toHaveLength(16);
    expect(reporterTokenParam.safeParse(a).success).toBe(true);
    expect(newReporterToken()).not.toBe(a);
    expect(reporterPagePath(`/r/${a}`)).toBe(`/api/reporter/${a}/page`);
    expect(reporterPagePath(`/r/${a}?x=1`)).toBe(`/api/reporter/${a}/page?x=1`);
    for (const other of ['/r/', '/r/a/b', '/api/r/x', '/reports', '/'])
      expect(reporterPagePath(other)).toBeNull();
  });
});

describe('the page', () => {
  const status = {
    number: 7,
    description: '<script>alert(1)</script>',
    submittedAt: '2026-11-28T10:00:00.000Z',
    status: 'working' as const,
    comments: [
      {
        id: 'c',
        author: 'Ann <b>',
        mine: false,
        body: '"quoted" & <i>',
        createdAt: '2026-11-28T11:00:00.000Z',
      },
    ],
    mails: true,
  };

  it('escapes every stored value and allows its script and style by their hashes only', () => {
    const { html, csp } = statusPage(
      { lang: 'ru', projectName: 'Shop </title>', color: '#FFEE00' },
      status,
      'T'.repeat(22),
    );
    expect(html).not.toContain('<script>alert');
    expect(html).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
    expect(html).toContain('Ann &#60;b&#62;');
    expect(html).toContain('Shop &#60;/title&#62;');
    expect(html).toContain('<html lang="ru"');
    expect(html).toContain(reporterTexts.ru.working);
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '';
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? '';
    const hash = (s: string) => `'sha256-${createHash('sha256').update(s).digest('base64')}'`;
    expect(csp).toContain(`script-src ${hash(script)}`);
    expect(csp).toContain(`style-src ${hash(style)}`);
    expect(csp).not.toContain('unsafe');
  });

  it('sets black or white on the widget colour, whichever reaches 4.5:1', () => {
    for (const color of ['#FFEE00', '#4F4EAE', '#777777', '#000000', '#FFFFFF', '#E8590C']) {
      const fg = readableOn(color);
      expect(contrastRatio(color, fg), color).toBeGreaterThanOrEqual(4.5);
      const { html } = statusPage({ lang: 'en', projectName: 'S', color }, status, 'T'.repeat(22));
      expect(html).toContain(`background:${color};color:${fg}`);
    }
  });

  it('answers the 404 page in the visitor’s language when the header names one of the six', () => {
    expect(langOfHeader('de-DE,de;q=0.9,en;q=0.8')).toBe('de');
    expect(langOfHeader('ja,ru;q=0.5')).toBe('ru');
    expect(langOfHeader(undefined)).toBe('en');
    expect(notFoundPage('cs').html).toContain(reporterTexts.cs.notFoundText);
  });
});

describe('the From name', () => {
  it('is an encoded word, so no character in it can change the header', () => {
    const from = fromWithName('Snag <no-reply@snag.example>', 'Bäckerei "Support" <x@evil>\r\nBcc: y');
    expect(from).toMatch(/^=\?UTF-8\?B\?[A-Za-z0-9+/=]+\?= <no-reply@snag\.example>$/);
    expect(fromWithName('no-reply@snag.example', 'Shop')).toBe(
      `=?UTF-8?B?${Buffer.from('Shop').toString('base64')}?= <no-reply@snag.example>`,
    );
    expect(fromWithName('Snag <a@b.c>', '  ')).toBe('Snag <a@b.c>');
  });
});

describe('which events owe the reporter a mail', () => {
  const base = {
    projectId: '00000000-0000-4000-8000-000000000000',
    issueNumber: 1,
    at: '2026-11-28T10:00:00.000Z',
  };
  const member = { kind: 'member' as const, id: 'u', name: 'Ann' };
  it('a comment by anyone but the reporter; a change between an open status and resolved or closed', () => {
    expect(owedBy({ ...base, type: 'comment.created', actor: member, commentId: 'a'.repeat(20) })).toBe(
      'comment',
    );
    expect(
      owedBy({
        ...base,
        type: 'comment.created',
        actor: { kind: 'reporter', name: 'Reporter' },
        commentId: 'a'.repeat(20),
      }),
    ).toBeNull();
    const status = (from: string, to: string) =>
      owedBy({ ...base, type: 'issue.updated', actor: member, changes: { status: { from, to } } });
    expect(status('new', 'resolved')).toBe('status');
    expect(status('in_review', 'closed')).toBe('status');
    expect(status('resolved', 'closed')).toBeNull();
    // A reopening is news too: the reporter heard "resolved" (the flush decides what it says).
    expect(status('resolved', 'new')).toBe('status');
    expect(status('closed', 'in_progress')).toBe('status');
    expect(status('new', 'in_progress')).toBeNull();
    expect(
      owedBy({
        ...base,
        type: 'issue.updated',
        actor: member,
        changes: { priority: { from: 'none', to: 'high' } },
      }),
    ).toBeNull();
  });
});

describe('a comment as the reporter reads it', () => {
  it('names the member who made an API token, never the token or an id', () => {
    const author = { kind: 'token', id: 'Hl6lEwlLdDHQ', name: 'Grace Hopper', token: 'Release script' };
    const shown = reporterComment({ id: 'c'.repeat(20), author, body: 'Fixed', createdAt: 'x' });
    expect(shown).toEqual({
      id: 'c'.repeat(20),
      author: 'Grace Hopper',
      mine: false,
      body: 'Fixed',
      createdAt: 'x',
    });
    expect(JSON.stringify(shown)).not.toMatch(/Release script|Hl6lEwlLdDHQ/);
  });
});

describe('one mail that carries several things', () => {
  it('leads with the resolution when the report was resolved before its confirmation went out', () => {
    const t = reporterTexts.en;
    const mail = reporterMail({
      lang: 'en',
      to: 'visitor@example.org',
      fromName: 'Shop',
      projectName: 'Shop',
      number: 7,
      confirm: true,
      resolved: true,
      comments: [{ author: 'Ada Lovelace', body: 'Fixed in 1.4.2' }],
      token: newReporterToken(),
    });
    expect(mail.subject).toBe(`${fill(t.resolvedSubject, { n: 7 })} · Shop`);
    // The body still says all three, in order: received, the comment, resolved.
    const at = (s: string) => mail.text.indexOf(s);
    const received = at(fill(t.confirmIntro, { n: 7, project: 'Shop' }));
    expect(received).toBeGreaterThan(-1);
    expect(at('> Fixed in 1.4.2')).toBeGreaterThan(received);
    expect(at(fill(t.resolvedIntro, { n: 7, project: 'Shop' }))).toBeGreaterThan(at('> Fixed in 1.4.2'));
  });
});

describe('the news of the status a mail tells', () => {
  const header = (status: string) => ({ status });
  it('is the status now against what the reporter last heard: resolved, reopened, or nothing', () => {
    expect(statusNews(true, header('resolved'), { toldResolved: false })).toBe('resolved');
    expect(statusNews(true, header('closed'), { toldResolved: false })).toBe('resolved');
    expect(statusNews(true, header('in_progress'), { toldResolved: true })).toBe('reopened');
    // Resolved again after a reopening they heard of: resolved once more.
    expect(statusNews(true, header('resolved'), { toldResolved: false })).toBe('resolved');
    // Changes that netted out before the flush: nothing, never "resolved" twice in a row.
    expect(statusNews(true, header('resolved'), { toldResolved: true })).toBeNull();
    expect(statusNews(true, header('new'), { toldResolved: false })).toBeNull();
    // An entry of comments only says nothing of the status.
    expect(statusNews(false, header('resolved'), { toldResolved: false })).toBeNull();
  });

  it('a reopening leads the subject and says so, in German too', () => {
    for (const lang of ['en', 'de'] as const) {
      const t = reporterTexts[lang];
      const mail = reporterMail({
        lang,
        to: 'visitor@example.org',
        fromName: 'Shop',
        projectName: 'Shop',
        number: 7,
        confirm: false,
        resolved: false,
        reopened: true,
        comments: [],
        token: newReporterToken(),
      });
      expect(mail.subject).toBe(`${fill(t.reopenedSubject, { n: 7 })} · Shop`);
      expect(mail.text).toContain(fill(t.reopenedIntro, { n: 7, project: 'Shop' }));
      expect(mail.text).not.toContain(fill(t.resolvedIntro, { n: 7, project: 'Shop' }));
    }
  });
});
