/** UI language: English or German, chosen by the user (stored locally) or from the browser's language. */
import type { Lang } from '#contracts/errors';

export type { Lang };
export const languages: readonly Lang[] = ['en', 'de'];
const storageKey = 'snag.lang';

export function isLang(value: unknown): value is Lang {
  return value === 'en' || value === 'de';
}

/** The stored choice wins; otherwise German for any German browser locale (de, de-AT, ...), else English. */
export function detectLanguage(stored: string | null, browserLanguages: readonly string[]): Lang {
  if (isLang(stored)) return stored;
  const first = browserLanguages[0]?.toLowerCase() ?? '';
  return first === 'de' || first.startsWith('de-') ? 'de' : 'en';
}

export function initialLanguage(): Lang {
  if (typeof window === 'undefined') return 'en';
  const stored = safeGet(storageKey);
  const browser = navigator.languages?.length ? navigator.languages : [navigator.language];
  return detectLanguage(stored, browser);
}

export function storeLanguage(lang: Lang): void {
  try {
    localStorage.setItem(storageKey, lang);
  } catch {
    // Private mode or disabled storage: the choice lasts for this page only.
  }
}

function safeGet(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}
