/**
 * The issue detail's triage rules (web/src/issues/triage-model.ts, issue 23): label chips readable on any
 * colour, activity told in plain words without ids, the `@` completion, and who may change a comment.
 */
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { roles } from '#contracts/teams';
import { type ActivityView, activityKinds } from '#contracts/triage';
import { may } from '../../../functions/projects/access';
import { de } from '../../../web/src/i18n/de';
import { en } from '../../../web/src/i18n/en';
import { actorText } from '../../../web/src/issues/actor-text';
import {
  activityWords,
  commentRights,
  insertMention,
  labelPresets,
  mentionAt,
  mentionMatches,
  viaExtensionOf,
  viaTokenOf,
} from '../../../web/src/issues/detail-model';
import { labelTextColor } from '../../../web/src/issues/triage-model';
import { writeQueue } from '../../../web/src/issues/useFieldSaves';

/** WCAG 2 contrast of two `#rrggbb` colours. */
function contrast(a: string, b: string): number {
  const lum = (hex: string) => {
    const c = [1, 3, 5].map((i) => {
      const v = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
      return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * c[0]! + 0.7152 * c[1]! + 0.0722 * c[2]!;
  };
  const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p) as [number, number];
  return (x + 0.05) / (y + 0.05);
}

describe('label chip text', () => {
  it('is white on dark colours and black on light ones', () => {
    expect(labelTextColor('#000000')).toBe('#ffffff');
    expect(labelTextColor('#1971c2')).toBe('#ffffff');
    expect(labelTextColor('#ffffff')).toBe('#000000');
    expect(labelTextColor('#fab005')).toBe('#000000');
  });

  it('reaches 4.5:1 for every preset and for a sweep of all hues and shades', () => {
    const colours = [...labelPresets];
    for (let r = 0; r < 256; r += 17)
      for (let g = 0; g < 256; g += 17)
        for (let b = 0; b < 256; b += 17)
          colours.push(`#${[r, g, b].map((v) => v.toString(16).padStart(2, '0')).join('')}` as never);
    const worst = Math.min(...colours.map((c) => contrast(c, labelTextColor(c))));
    expect(worst).toBeGreaterThanOrEqual(4.5);
  });
});

const jane = { kind: 'member' as const, id: '11111111-1111-4111-8111-111111111111', name: 'Jane Roe' };
const entry = (e: Partial<ActivityView>): ActivityView => ({
  id: 'a'.repeat(20),
  kind: 'status',
  actor: jane,
  at: '2026-11-25T06:00:00.000Z',
  ...e,
});
const names = {
  person: (id: string) => (id === 'u2' ? 'Max Mustermann' : null),
  label: (id: string) => (id === 'l1' ? { id, name: 'Bug', color: '#e03131' } : undefined),
};

describe('activity in plain words', () => {
  it('names the actor and the new value', () => {
    expect(activityWords(entry({ kind: 'priority', from: 'none', to: 'high' }), names)).toEqual({
      key: 'priority',
      values: { actor: 'Jane Roe', to: 'high' },
    });
    expect(activityWords(entry({ kind: 'assignee', from: null, to: 'u2' }), names).values.to).toBe(
      'Max Mustermann',
    );
  });

  it('never shows an id: a member who left and a deleted label get neutral words', () => {
    expect(activityWords(entry({ kind: 'assignee', to: 'gone' }), names).key).toBe('assignedFormer');
    expect(activityWords(entry({ kind: 'assignee', to: null }), names).key).toBe('unassigned');
    const both = activityWords(entry({ kind: 'labels', from: ['x9'], to: ['l1'] }), names);
    expect(both).toEqual({ key: 'labelsChanged', values: { actor: 'Jane Roe', added: 'Bug', removed: '' } });
    expect(activityWords(entry({ kind: 'labels', from: [], to: ['l1'] }), names)).toEqual({
      key: 'labelsAdded',
      values: { actor: 'Jane Roe', labels: 'Bug', count: 1 },
    });
  });

  it('tells a widget report apart from an issue a member created', () => {
    const reporter = { kind: 'reporter' as const, name: 'Reporter' };
    expect(activityWords(entry({ kind: 'created', actor: reporter }), names)).toEqual({
      key: 'reported',
      values: {},
    });
    expect(activityWords(entry({ kind: 'created' }), names).key).toBe('created');
  });

  it('tells a link of the similar-reports rule with the other issue, never as a merge (issue 37)', () => {
    const system = { kind: 'system' as const, name: 'Snag' };
    const words = activityWords(
      entry({ kind: 'linked', actor: system, to: 12, reason: 'same_page_and_error' }),
      names,
    );
    expect(words).toEqual({ key: 'linked', values: { to: '12' } });
    expect(en.triageDetail.activity.linked.replace('{{to}}', '12')).toBe(
      'Linked to #12: same page and same error',
    );
    expect(de.triageDetail.activity.linked).toContain('#{{to}}');
  });

  it('tells a duplicate released by the deletion of its primary why it stands alone, naming the gone issue', () => {
    const system = { kind: 'system' as const, name: 'Snag' };
    const words = activityWords(
      entry({ kind: 'unmerged', actor: system, from: 12, reason: 'primary.deleted' }),
      names,
    );
    expect(words).toEqual({ key: 'unmergedPrimaryDeleted', values: { n: '12' } });
    expect(en.triageDetail.activity.unmergedPrimaryDeleted.replace('{{n}}', '12')).toBe(
      '#12 was deleted, so this issue stands alone again',
    );
    expect(de.triageDetail.activity.unmergedPrimaryDeleted).toContain('#{{n}}');
    // A member's unmerge still reads as theirs.
    expect(activityWords(entry({ kind: 'unmerged', from: 12 }), names).key).toBe('unmerged');
  });

  it('tells deliveries and their failures with the integration and the reason', () => {
    const system = { kind: 'system' as const, name: 'Snag' };
    expect(activityWords(entry({ kind: 'delivered', actor: system, integration: 'slack' }), names)).toEqual({
      key: 'delivered',
      values: { integration: 'slack' },
    });
    expect(
      activityWords(
        entry({ kind: 'delivery.failed', actor: system, integration: 'jira', reason: '401' }),
        names,
      ),
    ).toEqual({ key: 'deliveryFailed', values: { integration: 'jira', reason: '401' } });
    expect(activityWords(entry({ kind: 'dueDate', to: null }), names).key).toBe('dueDateCleared');
    expect(activityWords(entry({ kind: 'dueDate', to: '2026-12-01' }), names).values.to).toBe('2026-12-01');
  });
});

/** The dashboard's catalogues in a fresh i18next, as the screen's `t` reads them. */
function translator(lng: 'en' | 'de') {
  const i18n = i18next.createInstance();
  void i18n.init({
    resources: { en: { translation: en }, de: { translation: de } },
    lng,
    initAsync: false,
    interpolation: { escapeValue: false },
  });
  return i18n.getFixedT(lng);
}

describe('a change or comment made through an API token (issue 25)', () => {
  const ada = { kind: 'token' as const, id: 'Hl6lEwlLdDHQ', name: 'Ada Lovelace', token: 'CI' };
  const line = (lng: 'en' | 'de', e: ActivityView) => {
    const t = translator(lng);
    const words = activityWords(e, names);
    const values: Record<string, string | number> = {
      ...words.values,
      actor: actorText(t, String(words.values.actor), words.via),
    };
    return (t as (key: string, v: object) => string)(`triageDetail.activity.${words.key}`, {
      ...values,
      to: e.kind === 'priority' ? t(`triage.priority.${String(e.to)}` as 'triage.priority.high') : values.to,
    });
  };

  it('reads as its creator via the token, in the timeline and on the comment', () => {
    const priority = entry({ kind: 'priority', actor: ada, from: 'none', to: 'high' });
    expect(activityWords(priority, names)).toEqual({
      key: 'priority',
      values: { actor: 'Ada Lovelace', to: 'high' },
      via: 'CI',
    });
    expect(line('en', priority)).toBe('Ada Lovelace via API token CI set priority to High');
    expect(line('de', priority)).toBe('Ada Lovelace über API-Token CI hat die Priorität auf Hoch gesetzt');
    expect(actorText(translator('en'), ada.name, viaTokenOf(ada))).toBe('Ada Lovelace via API token CI');
    expect(actorText(translator('de'), ada.name, viaTokenOf(ada))).toBe('Ada Lovelace über API-Token CI');
  });

  it('keeps a token made before its creator was kept, and everyone else, as named', () => {
    const legacy = { kind: 'token' as const, id: 'Hl6lEwlLdDHQ', name: 'API token CI' };
    expect(viaTokenOf(legacy)).toBeNull();
    expect(viaTokenOf(jane)).toBeNull();
    // A member's actor never says "via", whatever else it carries.
    expect(viaTokenOf({ ...jane, token: 'CI' })).toBeNull();
    expect(line('en', entry({ kind: 'closed', actor: legacy }))).toBe('API token CI resolved the issue');
    expect(line('en', entry({ kind: 'closed' }))).toBe('Jane Roe resolved the issue');
    expect(actorText(translator('de'), ' ', null)).toBe('Jemand');
  });
});

describe('an issue filed through the browser extension (issue 34)', () => {
  const grace = { kind: 'member' as const, id: 'u-grace', name: 'Grace Hopper', via: 'extension' as const };
  const tell = (lng: 'en' | 'de', e: ActivityView) => {
    const t = translator(lng);
    const words = activityWords(e, names);
    const actor = actorText(t, String(words.values.actor), words.via, words.viaExtension);
    return (t as (key: string, v: object) => string)(`triageDetail.activity.${words.key}`, {
      ...words.values,
      actor,
    });
  };

  it('reads as the member via the extension, in English and German', () => {
    const created = entry({ kind: 'created', actor: grace });
    expect(activityWords(created, names)).toEqual({
      key: 'created',
      values: { actor: 'Grace Hopper' },
      viaExtension: true,
    });
    expect(tell('en', created)).toBe('Grace Hopper via extension reported the issue');
    expect(tell('de', created)).toBe('Grace Hopper über die Browser-Erweiterung hat die Meldung erstellt');
    // Only a member's actor with the mark says so; a token's keeps its own words.
    expect(viaExtensionOf(jane)).toBe(false);
    expect(viaExtensionOf({ ...grace, kind: 'token' as const })).toBe(false);
    expect(tell('en', entry({ kind: 'created', actor: jane }))).toBe('Jane Roe reported the issue');
  });
});

const people = [
  { userId: 'u1', firstName: 'Jane', lastName: 'Roe' },
  { userId: 'u2', firstName: 'Max', lastName: 'Mustermann' },
  { userId: 'u3', firstName: 'Janet', lastName: 'Jackson' },
];

describe('mention completion', () => {
  it('finds the mention being typed at the caret, names with a space included', () => {
    expect(mentionAt('Hi @ja', 6)).toEqual({ start: 3, query: 'ja' });
    expect(mentionAt('@Jane R', 7)).toEqual({ start: 0, query: 'Jane R' });
    expect(mentionAt('Hi @', 4)).toEqual({ start: 3, query: '' });
    // An address is no mention; neither is a finished line nor a far-away @.
    expect(mentionAt('mail me@example.org', 19)).toBeNull();
    expect(mentionAt('@Jane\nok', 8)).toBeNull();
    expect(mentionAt('@a b c d', 8)).toBeNull();
  });

  it('matches names by their start or a word start, case-insensitively', () => {
    expect(mentionMatches(people, 'ja').map((p) => p.userId)).toEqual(['u1', 'u3']);
    expect(mentionMatches(people, 'MUST').map((p) => p.userId)).toEqual(['u2']);
    expect(mentionMatches(people, 'jane r').map((p) => p.userId)).toEqual(['u1']);
    expect(mentionMatches(people, 'zz')).toEqual([]);
  });

  it('inserts @First Last and a space, with the caret after it', () => {
    expect(insertMention('Hi @ja, look', 3, 6, people[0]!)).toEqual({
      text: 'Hi @Jane Roe , look',
      caret: 13,
    });
  });
});

describe('the words exist', () => {
  it('has a catalogue line for every word activityWords can choose, in every shape of every kind', () => {
    const lines = en.triageDetail.activity as Record<string, string>;
    const has = (key: string) => key in lines || `${key}_one` in lines;
    const shapes: Partial<ActivityView>[] = [
      { to: 'x' },
      { to: null },
      { to: 'u2' },
      { from: [], to: ['l1'] },
      { from: ['l1'], to: [] },
      { from: ['l1'], to: ['x'] },
      { from: [], to: [] },
      { to: '2026-01-01', reason: 'r', integration: 'slack' },
      { integration: 'slack' },
    ];
    for (const kind of activityKinds)
      for (const shape of shapes) {
        const { key } = activityWords(entry({ kind, ...shape }), names);
        expect([kind, key, has(key)]).toEqual([kind, key, true]);
      }
  });
});

describe('who may change a comment', () => {
  it("offers Delete on others' comments exactly to the roles the server lets moderate", () => {
    for (const role of roles)
      expect([role, commentRights(jane, 'other', role).remove]).toEqual([role, may(role, 'moderate')]);
  });

  it('lets the author edit and delete, ADMIN and OWNER delete others', () => {
    expect(commentRights(jane, jane.id, 'MEMBER')).toEqual({ edit: true, remove: true });
    expect(commentRights(jane, jane.id, 'GUEST')).toEqual({ edit: true, remove: true });
    expect(commentRights(jane, 'someone-else', 'MEMBER')).toEqual({ edit: false, remove: false });
    expect(commentRights(jane, 'someone-else', 'ADMIN')).toEqual({ edit: false, remove: true });
    expect(commentRights(jane, null, 'OWNER')).toEqual({ edit: false, remove: true });
    expect(commentRights({ kind: 'system', name: 'Snag' }, null, 'MEMBER')).toEqual({
      edit: false,
      remove: false,
    });
  });
});

describe('the side panel’s writes per field (decision Tr-C14)', () => {
  /** A write the test finishes by hand, so answers can arrive in any order. */
  function writes() {
    const sent: string[] = [];
    const open = new Map<string, () => void>();
    const write = (value: string) => () => {
      sent.push(value);
      return new Promise<void>((resolve) => open.set(value, resolve));
    };
    const tick = () => new Promise((r) => setTimeout(r, 0));
    const finish = async (value: string) => {
      await tick();
      open.get(value)?.();
      await tick();
    };
    return { sent, write, finish, tick };
  }

  it('sends a field’s values in order, one at a time, skipping those superseded while they waited', async () => {
    const q = writeQueue<'dueDate' | 'labels'>((key) => key === 'labels');
    const { sent, write, finish, tick } = writes();
    // Keystrokes arrive as separate events: the first value is out before the next is typed.
    const a = q.add('dueDate', write('0002-12-15'));
    await tick();
    const b = q.add('dueDate', write('0020-12-15'));
    const c = q.add('dueDate', write('2026-12-15'));
    await tick();
    // The first is out; the others wait for its answer, so a slow answer can never land last.
    expect(sent).toEqual(['0002-12-15']);
    await finish('0002-12-15');
    await finish('2026-12-15');
    await Promise.all([a.done, b.done, c.done]);
    expect(sent).toEqual(['0002-12-15', '2026-12-15']);
    expect([q.isLatest('dueDate', a.run), q.isLatest('dueDate', c.run)]).toEqual([false, true]);
  });

  it('sends every label change, in order', async () => {
    const q = writeQueue<'dueDate' | 'labels'>((key) => key === 'labels');
    const { sent, write, finish } = writes();
    const done = ['+checkout', '+ui', '-bug'].map((v) => q.add('labels', write(v)).done);
    for (const v of ['+checkout', '+ui', '-bug']) await finish(v);
    await Promise.all(done);
    expect(sent).toEqual(['+checkout', '+ui', '-bug']);
  });
});

describe('a duplicate moved with its primary (docs/similar.md "Following the primary")', () => {
  const snag = { kind: 'system' as const, name: 'Snag' };
  // As ActivityLine says it: the catalogue line, the status named in the UI language.
  const line = (lng: 'en' | 'de', e: ActivityView) => {
    const t = translator(lng) as unknown as (key: string, v?: object) => string;
    const words = activityWords(e, names);
    const values: Record<string, string | number> = { ...words.values };
    if (typeof values.to === 'string') values.to = t(`triage.status.${values.to}`);
    return t(`triageDetail.activity.${words.key}`, values);
  };

  it('says it was resolved with the primary, and went back to its own status, in en and de', () => {
    const followed = entry({ kind: 'followed', actor: snag, from: 'in_progress', to: 12 });
    const back = entry({ kind: 'unfollowed', actor: snag, from: 12, to: 'in_progress' });
    expect(line('en', followed)).toBe('Resolved with #12');
    expect(line('de', followed)).toBe('Mit #12 erledigt');
    expect(line('en', back)).toBe('Back to In progress, as before it was resolved with #12');
    expect(line('de', back)).toBe('Wieder In Arbeit, wie vor der Erledigung mit #12');
  });
});
