import { describe, expect, it } from 'vitest';
import { apiReferenceTexts } from '../../../web/src/i18n/apiReference';
import { de } from '../../../web/src/i18n/de';
import { en } from '../../../web/src/i18n/en';
import { insightsTexts } from '../../../web/src/i18n/insights';
import { integrationTexts } from '../../../web/src/i18n/integrations';
import { detectLanguage } from '../../../web/src/i18n/language';
import { replayTexts } from '../../../web/src/i18n/replay';
import { teamToolsTexts } from '../../../web/src/i18n/teamTools';

function flatten(obj: object, prefix = ''): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(obj)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (value && typeof value === 'object') Object.assign(out, flatten(value, path));
    else out[path] = value;
  }
  return out;
}

describe('UI catalogues', () => {
  const flatEn = flatten(en);
  const flatDe = flatten(de);

  it('English and German have exactly the same keys', () => {
    expect(Object.keys(flatDe).sort()).toEqual(Object.keys(flatEn).sort());
  });

  it.each([
    ['en', flatEn],
    ['de', flatDe],
  ])('%s has only non-empty strings', (_lang, flat) => {
    for (const [key, value] of Object.entries(flat)) {
      expect(typeof value, key).toBe('string');
      expect((value as string).trim(), key).not.toBe('');
    }
  });
});

// The parts that load with the screens that show them, each named by where it sits in the catalogue.
describe.each([
  ['replay', replayTexts],
  ['insights', insightsTexts],
  ['integrationScreen', integrationTexts],
  ['teams', teamToolsTexts],
  ['apiReference', apiReferenceTexts],
] as const)("the catalogue part under '%s' (loaded with its screens)", (at, texts) => {
  const flatEn = flatten(texts.en);
  const flatDe = flatten(texts.de);

  it('has the same keys in English and German, all non-empty, and none the main catalogue has', () => {
    expect(Object.keys(flatDe).sort()).toEqual(Object.keys(flatEn).sort());
    for (const [key, value] of [...Object.entries(flatEn), ...Object.entries(flatDe)]) {
      expect(typeof value, key).toBe('string');
      expect(String(value).trim(), key).not.toBe('');
    }
    const main = [flatten(en), flatten(de)];
    for (const key of Object.keys(flatEn))
      for (const flat of main) expect(flat, key).not.toHaveProperty([`${at}.${key}`]);
  });
});

describe('detectLanguage', () => {
  it('prefers the stored choice', () => {
    expect(detectLanguage('de', ['en-US'])).toBe('de');
    expect(detectLanguage('en', ['de-DE'])).toBe('en');
  });

  it('falls back to the browser language, German for any German locale', () => {
    expect(detectLanguage(null, ['de-AT', 'en'])).toBe('de');
    expect(detectLanguage(null, ['DE'])).toBe('de');
    expect(detectLanguage('fr', ['fr-FR'])).toBe('en');
    expect(detectLanguage(null, [])).toBe('en');
  });
});

describe('a part loaded with its screen, then the language switched', () => {
  it("keeps the part's texts inside a group the main catalogue also has (`teams`)", async () => {
    const { i18n, i18nReady, loadLanguage } = await import('../../../web/src/i18n');
    // The team's tools' texts come in before either main catalogue, as when Privacy opens and the
    // reader then switches language: the later main catalogue must not replace the `teams` group.
    await import('../../../web/src/teams/texts');
    await Promise.all([i18nReady, loadLanguage('en'), loadLanguage('de')]);
    for (const lang of ['en', 'de'] as const) {
      const t = i18n.getFixedT(lang);
      expect(t('teams.privacy.title')).toBe(teamToolsTexts[lang].privacy.title);
      expect(t('teams.roles.OWNER')).toBe(lang === 'en' ? en.teams.roles.OWNER : de.teams.roles.OWNER);
    }
  });
});
