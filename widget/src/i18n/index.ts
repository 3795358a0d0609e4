/** The widget's texts in six languages (SPEC.md section 3 widgetLanguage): one file per language. */
import { languages } from './bundled';
import type { Messages } from './en';

export type { Messages };
export type MessageKey = keyof Messages;
export { languages };

/** The texts of `language`; in a one-language build (or for an unknown code) whichever language is there. */
export function messagesFor(language: string): Messages {
  return languages[language as keyof typeof languages] ?? languages.en ?? Object.values(languages)[0]!;
}

/** Replaces each `{name}` with `vars[name]`; unknown placeholders stay as they are. */
export function format(text: string, vars: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
}
