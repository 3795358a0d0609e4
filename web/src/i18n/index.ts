/**
 * i18next set-up for the dashboard. Each catalogue is a chunk of its own and a visitor downloads only the
 * language they read (the two together were 29 KB of the 200 KB initial budget, gzip): main.tsx renders
 * once `i18nReady` has the initial language in, so no screen ever renders untranslated keys; switching
 * loads the other catalogue first, then changes the language.
 */
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { type ErrorCode, type ErrorContext, errorMessage, withRetryAt } from '#contracts/errors';
import type { ApiReferenceTexts } from './apiReference';
import type { Catalogue } from './en';
import type { InsightsTexts } from './insights';
import type { IntegrationTexts } from './integrations';
import { initialLanguage, isLang, type Lang, storeLanguage } from './language';
import type { ReplayTexts } from './replay';
import type { TeamToolsTexts } from './teamTools';

declare module 'i18next' {
  interface CustomTypeOptions {
    // These parts load with the screens that show them (./replay.ts, ./insights.ts, ./integrations.ts,
    // ./teamTools.ts, ./apiReference.ts), not with the first load.
    resources: {
      translation: Catalogue & {
        replay: ReplayTexts;
        insights: InsightsTexts;
        integrationScreen: IntegrationTexts;
        teams: TeamToolsTexts;
        apiReference: ApiReferenceTexts;
      };
    };
  }
}

const catalogues: Record<Lang, () => Promise<Catalogue>> = {
  en: () => import('./en').then((m) => m.en),
  de: () => import('./de').then((m) => m.de),
};

export const i18n = i18next.createInstance();

i18n.use(initReactI18next).init({
  resources: {},
  lng: initialLanguage(),
  // No fallback: a unit test keeps the two catalogues' keys equal, and a fallback would need both loaded.
  fallbackLng: false,
  supportedLngs: ['en', 'de'],
  partialBundledLanguages: true,
  interpolation: { escapeValue: false }, // React escapes already.
  initAsync: false,
  returnNull: false,
});

/** The catalogue of `lang`, loaded once (a second call waits for the same load). */
const loading = new Map<Lang, Promise<void>>();
export function loadLanguage(lang: Lang): Promise<void> {
  let done = loading.get(lang);
  if (!done) {
    done = catalogues[lang]().then((catalogue) => {
      // Deep: a part that loaded with its screen may sit inside one of the catalogue's groups (`teams`
      // holds ./teamTools.ts), and a shallow add would replace that group and drop the part's texts.
      i18n.addResourceBundle(lang, 'translation', catalogue, true, true);
    });
    // A failed load (the network) may be tried again on the next switch.
    done.catch(() => loading.delete(lang));
    loading.set(lang, done);
  }
  return done;
}

/** The initial language's catalogue is in: main.tsx renders after this. */
export const i18nReady: Promise<void> = loadLanguage(isLang(i18n.language) ? i18n.language : 'en');

function syncDocumentLanguage(lang: string): void {
  if (typeof document !== 'undefined') document.documentElement.lang = lang;
}
syncDocumentLanguage(i18n.language);
i18n.on('languageChanged', syncDocumentLanguage);

export function currentLanguage(): Lang {
  return isLang(i18n.language) ? i18n.language : 'en';
}

export function setLanguage(lang: Lang): void {
  storeLanguage(lang);
  void loadLanguage(lang).then(() => i18n.changeLanguage(lang));
}

/**
 * The message for an API error code in the UI language, worded for the screen named by `context`. The
 * sign-in block (ACCESS_DISABLED) ends with when it lifts (`retryAt` of the envelope), in the reader's
 * locale and time zone, the date added when it is not today.
 */
export function errorText(code: ErrorCode, context?: ErrorContext, retryAt?: string): string {
  const text = errorMessage(code, currentLanguage(), context);
  if (code !== 'ACCESS_DISABLED') return text;
  const at = retryAt === undefined ? Number.NaN : Date.parse(retryAt);
  if (Number.isNaN(at)) return withRetryAt(text, currentLanguage());
  const today = new Date(at).toDateString() === new Date().toDateString();
  const time = new Date(at).toLocaleString(
    displayLocale(),
    today ? { timeStyle: 'short' } : { dateStyle: 'medium', timeStyle: 'short' },
  );
  return withRetryAt(text, currentLanguage(), time);
}

/**
 * The locale dates and numbers are shown in: the browser's own when it is a variant of the UI language
 * (en-GB keeps day-month order), else the UI language itself.
 */
export function displayLocale(): string {
  const lang = currentLanguage();
  const browser = typeof navigator === 'undefined' ? [] : navigator.languages;
  return browser.find((l) => l === lang || l.startsWith(`${lang}-`)) ?? lang;
}
