import { describe, expect, it } from 'vitest';
import { widgetLanguages } from '#contracts/schemas';
import { widgetTextKeys } from '#contracts/widget-texts';
import { format, languages, messagesFor, messagesWith } from '../../../widget/src/i18n';
import en from '../../../widget/src/i18n/en';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('widget languages (one file per language under widget/src/i18n)', () => {
  it('covers exactly the languages a project can choose', () => {
    expect(Object.keys(languages).sort()).toEqual([...widgetLanguages].sort());
  });

  for (const [lang, messages] of Object.entries(languages)) {
    describe(lang, () => {
      it('has every English key and no other', () => {
        expect(Object.keys(messages).sort()).toEqual(Object.keys(en).sort());
      });

      it('has no empty or untrimmed text', () => {
        for (const [key, text] of Object.entries(messages)) {
          expect(text.trim(), `${lang}.${key}`).not.toBe('');
          expect(text, `${lang}.${key}`).toBe(text.trim());
        }
      });

      it('uses the same placeholders as English', () => {
        for (const key of Object.keys(en) as (keyof typeof en)[]) {
          expect(placeholders(messages[key]), `${lang}.${key}`).toEqual(placeholders(en[key]));
        }
      });

      it('has an own text for every error code and keeps the brand name out of translation', () => {
        expect(messages.poweredBy).toContain('{brand}');
        for (const key of Object.keys(en).filter((k) => k.startsWith('err'))) {
          expect(messages[key as keyof typeof en].length, `${lang}.${key}`).toBeGreaterThan(10);
        }
      });
    });
  }

  it('translates rather than copies: most texts differ from English', () => {
    for (const [lang, messages] of Object.entries(languages)) {
      if (lang === 'en') continue;
      const same = (Object.keys(en) as (keyof typeof en)[]).filter((k) => messages[k] === en[k]);
      // Words such as "Text", "Rectangle" or "Screenshots" are legitimately the same in some languages.
      expect(same.length, `${lang}: ${same.join(', ')}`).toBeLessThan(6);
    }
  });

  it('falls back to English for an unknown language', () => {
    expect(messagesFor('xx')).toBe(en);
    expect(messagesFor('de')).toBe(languages.de);
  });

  describe("the client's own texts (widgetTexts)", () => {
    it('replace the built-in heading, welcome, placeholder and thank-you texts of the language', () => {
      const own = {
        title: 'Fehler melden',
        welcomeTitle: 'Hallo!',
        welcomeText: 'Zeile 1\nZeile 2',
        descriptionPlaceholder: 'Was ist passiert?',
        thanksText: 'Wir melden uns.',
      };
      const t = messagesWith('de', own);
      expect(t).toEqual({ ...languages.de, ...own });
      expect(languages.de?.title).not.toBe('Fehler melden'); // the built-in set is untouched
    });

    it('keep the built-in text where a key is absent or blank, and ignore anything else', () => {
      const odd = { title: '  ', thanksText: 7, send: 'Hijack', welcomeTitle: 'Hi' } as unknown as Parameters<
        typeof messagesWith
      >[1];
      const t = messagesWith('en', odd);
      expect(t).toEqual({ ...en, welcomeTitle: 'Hi' });
      expect(messagesWith('en', undefined)).toEqual(en);
    });

    it('are all texts every language has', () => {
      for (const messages of Object.values(languages)) {
        for (const key of widgetTextKeys) expect(messages[key], key).toBeTruthy();
      }
    });
  });

  it('formats placeholders and leaves unknown ones alone', () => {
    expect(format('{name} is larger than {max} MB.', { name: 'a.mov', max: 25 })).toBe(
      'a.mov is larger than 25 MB.',
    );
    expect(format('{n} of {max}', { n: 3 })).toBe('3 of {max}');
  });
});
