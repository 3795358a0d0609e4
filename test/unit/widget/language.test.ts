/**
 * The widget's automatic language (docs/widget-api.md "Language"): the first of the visitor's browser
 * languages that Snag has, by primary subtag, else the project's chosen language; the client's own texts
 * of the language picked; a fixed language whatever the browser says.
 */
import { describe, expect, it } from 'vitest';
import type { WidgetConfig } from '#contracts/widget-config';
import { withLanguage } from '../../../widget/src/language';

const base: WidgetConfig = {
  id: '0b7c4a52-8d1e-4f3a-9c2b-5e6f7a8b9c0d',
  host: 'shop.example.com',
  wildcard: false,
  testMode: false,
  hideOnMobile: false,
  language: 'fr',
  color: '#4F4EAE',
  scheme: 'white',
  text: 'Feedback',
  position: 'rightMiddle',
  screenshot: true,
  upload: true,
  video: true,
  welcomeScreen: false,
  branding: true,
  customFields: [],
  texts: { title: 'Signaler un problème' },
  api: 'https://app.example.com',
};
const auto: WidgetConfig = {
  ...base,
  texts: undefined,
  languages: ['en', 'cs', 'fr', 'de', 'ru', 'es'],
  textSets: { de: { title: 'Problem melden' }, fr: { title: 'Signaler un problème' } },
};

describe('the automatic language', () => {
  it('is the first browser language Snag has, by its primary subtag, with its own texts', () => {
    expect(withLanguage(auto, ['de-AT', 'en-US'])).toMatchObject({
      language: 'de',
      texts: { title: 'Problem melden' },
    });
    expect(withLanguage(auto, ['pt-BR', 'ES', 'de'])).toMatchObject({ language: 'es', texts: undefined });
    expect(withLanguage(auto, ['cs-CZ']).language).toBe('cs');
  });

  it('falls back to the project’s language when the browser names none Snag has, or nothing', () => {
    for (const wanted of [['pt-BR', 'ja'], [], undefined]) {
      expect(withLanguage(auto, wanted)).toMatchObject({
        language: 'fr',
        texts: { title: 'Signaler un problème' },
      });
    }
  });

  it('leaves a fixed language as it is, whatever the browser says', () => {
    expect(withLanguage(base, ['de-DE'])).toBe(base);
  });
});
