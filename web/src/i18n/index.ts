/**
 * i18next set-up for the dashboard. Resources are bundled (two small catalogues), so initialisation is
 * synchronous and no screen ever renders untranslated keys.
 */
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { type ErrorCode, type ErrorContext, errorMessage } from '#contracts/errors';
import { de } from './de';
import { en } from './en';
import { initialLanguage, isLang, type Lang, storeLanguage } from './language';

declare module 'i18next' {
  interface CustomTypeOptions {
    resources: { translation: typeof en };
  }
}

export const i18n = i18next.createInstance();

i18n.use(initReactI18next).init({
  resources: { en: { translation: en }, de: { translation: de } },
  lng: initialLanguage(),
  fallbackLng: 'en',
  supportedLngs: ['en', 'de'],
  interpolation: { escapeValue: false }, // React escapes already.
  initAsync: false,
  returnNull: false,
});

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
  void i18n.changeLanguage(lang);
}

/** The message for an API error code in the UI language, worded for the screen named by `context`. */
export function errorText(code: ErrorCode, context?: ErrorContext): string {
  return errorMessage(code, currentLanguage(), context);
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
