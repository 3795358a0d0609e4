/**
 * Notifications (issue 23) without the stack: who gets what (`decide`, the rules of docs/data-model.md 4.13),
 * the settings' defaults for stored items, the unsubscribe token, and the mails' escaping and languages.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultNotificationSettings, type NotifyEvent } from '#contracts/triage';
import {
  settingsOf,
  unsubscribeToken,
  verifyUnsubscribeToken,
} from '../../../functions/accounts/notifications';
import { batchMail, digestMail, mailEvents } from '../../../functions/issues/notify-mails';
import { type CandidateFacts, decide, type MailEvent } from '../../../functions/issues/notify-recipients';

beforeAll(() => {
  process.env.ALTCHA_HMAC_KEY ??= 'unit-altcha-key-0123456789abcdef';
});

const tid = 'team-1';
const pid = 'project-1';
const by = { kind: 'member' as const, id: 'actor', name: 'Ada Lovelace' };
const facts = (over: Partial<CandidateFacts> & { role?: string; notify?: unknown } = {}): CandidateFacts => {
  const role = over.role ?? 'MEMBER';
  return {
    user: { email: 'u@example.org', notify: over.notify },
    teams: { teams: { [tid]: role === 'GUEST' ? { r: 'GUEST', p: [pid] } : { r: role as 'MEMBER' } } },
    meta: { id: pid, teamId: tid },
    comment: { visibility: 'public', body: 'Hi' },
    ...over,
  };
};

describe('decide', () => {
  const assigned: NotifyEvent = { kind: 'assigned', projectId: pid, number: 1, to: 'u', by };
  const mention: NotifyEvent = {
    kind: 'mentioned',
    projectId: pid,
    number: 1,
    to: ['u'],
    by,
    commentId: 'c',
  };
  const onMine: NotifyEvent = {
    kind: 'comment',
    projectId: pid,
    number: 1,
    assignee: 'u',
    by,
    commentId: 'c',
    visibility: 'internal',
  };

  it('mails assignments, mentions and comments on my issues by default, and new issues only when asked', () => {
    expect(decide(assigned, 'u', facts())).toBe('instant');
    expect(decide(mention, 'u', facts())).toBe('instant');
    expect(decide(onMine, 'u', facts())).toBe('instant');
    const newIssue: NotifyEvent = { kind: 'new', projectId: pid, number: 1 };
    expect(decide(newIssue, 'u', facts())).toBeNull();
    expect(decide(newIssue, 'u', facts({ notify: { newIssue: 'instant' } }))).toBe('instant');
    expect(decide(newIssue, 'u', facts({ notify: { newIssue: 'daily' } }))).toBe('daily');
  });

  it('a new report: the own setting decides, an Email integration naming the member included (Tr-N8)', () => {
    const newIssue: NotifyEvent = { kind: 'new', projectId: pid, number: 1 };
    const named = { active: 1, data: { email: 'desk@example.org', cc: ['U@example.org'] } };
    const saved = (newIssue: string) => ({
      user: { email: 'u@example.org', notify: { newIssue }, notifyRule: 2 },
      emailIntegration: named,
    });
    // At once and named: the integration's mail is theirs, so no second one.
    expect(decide(newIssue, 'u', facts(saved('instant')))).toBeNull();
    expect(decide(newIssue, 'u', facts(saved('daily')))).toBe('daily');
    expect(decide(newIssue, 'u', facts(saved('off')))).toBeNull();
    // Not named (or the integration is off): the notification mail.
    expect(decide(newIssue, 'u', facts({ ...saved('instant'), emailIntegration: undefined }))).toBe(
      'instant',
    );
    expect(
      decide(newIssue, 'u', facts({ ...saved('instant'), emailIntegration: { ...named, active: 0 } })),
    ).toBe('instant');
    // Settings from before the rule: named means at once, by the integration (as it always was).
    expect(
      decide(newIssue, 'u', facts({ notify: { newIssue: 'daily' }, emailIntegration: named })),
    ).toBeNull();
  });

  it('drops the actor’s own, a setting turned off, and someone else’s assignment', () => {
    expect(decide({ ...assigned, to: 'actor' }, 'actor', facts())).toBeNull();
    expect(decide(assigned, 'u', facts({ notify: { assigned: false } }))).toBeNull();
    expect(decide(mention, 'u', facts({ notify: { mentioned: false } }))).toBeNull();
    expect(decide(onMine, 'u', facts({ notify: { comments: false } }))).toBeNull();
    expect(decide(assigned, 'someone-else', facts())).toBeNull();
  });

  it('drops whoever may no longer read the project, a GUEST for internal comments, and a comment that is gone', () => {
    expect(decide(assigned, 'u', facts({ teams: { teams: {} } }))).toBeNull();
    expect(decide(assigned, 'u', facts({ teams: null }))).toBeNull();
    expect(
      decide(assigned, 'u', facts({ teams: { teams: { [tid]: { r: 'GUEST', p: ['other'] } } } })),
    ).toBeNull();
    expect(decide(mention, 'u', facts({ role: 'GUEST', comment: { visibility: 'internal' } }))).toBeNull();
    expect(decide(mention, 'u', facts({ role: 'GUEST', comment: { visibility: 'public' } }))).toBe('instant');
    expect(decide(mention, 'u', facts({ role: 'MEMBER', comment: { visibility: 'internal' } }))).toBe(
      'instant',
    );
    expect(decide(mention, 'u', facts({ comment: undefined }))).toBeNull();
    expect(decide(assigned, 'u', facts({ meta: undefined }))).toBeNull();
    expect(decide(assigned, 'u', facts({ user: undefined }))).toBeNull();
  });
});

describe('settingsOf', () => {
  it('reads missing or malformed fields as their defaults', () => {
    expect(settingsOf(undefined)).toEqual(defaultNotificationSettings);
    expect(settingsOf({ notify: { newIssue: 'weekly', assigned: false, extra: 1 } })).toEqual({
      ...defaultNotificationSettings,
      assigned: false,
    });
  });
});

describe('the unsubscribe token', () => {
  it('verifies its own user and kind, and nothing altered', async () => {
    const token = await unsubscribeToken('3f1e7c2a-0000-4000-8000-000000000001', 'mentioned');
    expect(await verifyUnsubscribeToken(token)).toEqual({
      userId: '3f1e7c2a-0000-4000-8000-000000000001',
      kind: 'mentioned',
    });
    for (const bad of [
      token.replace('.mentioned.', '.assigned.'),
      token.replace('3f1e', '3f1f'),
      `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`,
      `${token}.`,
      'a.b',
      '',
      '../../x.mentioned.abc',
    ])
      expect(await verifyUnsubscribeToken(bad), bad).toBeNull();
  });
});

describe('the mails', () => {
  const event = (over: Partial<MailEvent> = {}): MailEvent => ({
    kind: 'comment',
    projectId: pid,
    projectName: 'Shop "<img src=x onerror=alert(1)>"',
    number: 7,
    title: 'Cart <script>alert(1)</script>\r\nBcc: x@evil.example',
    by: 'Grace <b>Hopper</b>',
    commentId: 'c1',
    excerpt: 'Look <a href="javascript:alert(1)">here</a>',
    at: 1,
    ...over,
  });
  const to = { email: 'u@example.org', firstName: 'Ada', lang: 'en' as const };

  it('escape every stored value in the HTML part and keep the subject to one line', async () => {
    const mail = await batchMail('u', to, [event()]);
    expect(mail.subject).not.toMatch(/[\r\n]/);
    expect(mail.subject).toBe(
      '[Shop "<img src=x onerror=alert(1)>"] New comment on #7: Cart <script>alert(1)</script> Bcc: x@evil.example',
    );
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).not.toContain('<img');
    expect(mail.html).not.toContain('<a href="javascript');
    expect(mail.html).toContain('&#60;script&#62;');
    expect(mail.text).toContain('> Look <a href="javascript:alert(1)">here</a>');
    expect(mail.text).toContain('http://localhost:3000/profile/site/project-1/ticket/7');
    expect(mail.text).toMatch(
      /Unsubscribe from emails about comments on issues assigned to you: http:\/\/localhost:3000\/api\/notifications\/unsubscribe\?token=u\.comments\./,
    );
  });

  it('name the API token a change was made through, after its creator (en, de)', async () => {
    const byToken = event({ kind: 'assigned', by: 'Grace Hopper', byToken: 'CI', excerpt: undefined });
    expect((await batchMail('u', to, [byToken])).text).toContain(
      'Grace Hopper via API token CI assigned #7 “Cart <script>',
    );
    expect((await batchMail('u', { ...to, lang: 'de' }, [byToken])).text).toContain(
      'Grace Hopper über API-Token CI hat Ihnen #7',
    );
    expect((await batchMail('u', to, [event({ kind: 'assigned', by: 'Grace' })])).text).toContain(
      'Grace assigned #7',
    );
  });

  it('tell a comment once when it also mentions the person, and are German for a German account', async () => {
    const events = [event(), event({ kind: 'mentioned', at: 2 })];
    expect(mailEvents(events).map((e) => e.kind)).toEqual(['mentioned']);
    const mail = await batchMail('u', { ...to, lang: 'de' }, events);
    expect(mail.subject).toContain('Sie wurden bei #7 erwähnt');
    expect(mail.text).toContain('Hallo Ada,');
    expect(mail.text).toContain('lng=de');
    const digest = await digestMail('u', { ...to, lang: 'de' }, [event({ kind: 'new', by: undefined })]);
    expect(digest.subject).toBe('Snag-Tageszusammenfassung: 1 neue Meldung');
    expect(digest.text).toContain('E-Mails über neue Meldungen abbestellen:');
  });
});
