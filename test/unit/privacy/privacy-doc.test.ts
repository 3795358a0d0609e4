import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { redactionDocs, redactionRules, redactText } from '#contracts/redaction';

/** The rules' table as docs/privacy.md must hold it, built from the rules and their own examples. */
function rulesTable(): string {
  return [
    '| Rule | Matches | Example | Stored as |',
    '|---|---|---|---|',
    ...redactionRules.map((r) => {
      const doc = redactionDocs[r.name]!;
      return `| \`${r.name}\` | ${doc.matches} | \`${doc.example}\` | \`${redactText(doc.example, { emails: true })}\` |`;
    }),
  ].join('\n');
}

describe('docs/privacy.md', () => {
  it('lists every redaction rule with its example, as the rules redact it', () => {
    const doc = readFileSync(new URL('../../../docs/privacy.md', import.meta.url), 'utf8');
    const start = doc.indexOf('| Rule | Matches |');
    const table = doc.slice(start, doc.indexOf('\n\n', start));
    expect(table).toBe(rulesTable());
  });

  it('has an example for each rule that the rule itself changes', () => {
    expect(Object.keys(redactionDocs).sort()).toEqual(redactionRules.map((r) => r.name).sort());
    for (const r of redactionRules) {
      const { example } = redactionDocs[r.name]!;
      expect(redactText(example, { emails: true }), r.name).toContain(r.replacement);
    }
  });
});
