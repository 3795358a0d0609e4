/** The widget's texts in six languages (SPEC.md section 3 widgetLanguage): one file per language. */

import type { WidgetTextSet } from '#contracts/schemas';
import { type WidgetTextKey, widgetTextKeys } from '#contracts/widget-texts';
import { languages } from './bundled';
import type { Messages } from './en';

export type { Messages };
export type MessageKey = keyof Messages;
export { languages };

/** The texts of `language`; in a one-language build (or for an unknown code) whichever language is there. */
export function messagesFor(language: string): Messages {
  return languages[language as keyof typeof languages] ?? languages.en ?? Object.values(languages)[0]!;
}

/** Every text a client may replace is one of the widget's own messages (a type error otherwise). */
const replaceable: readonly MessageKey[] = widgetTextKeys;

/**
 * The texts of `language` with the client's own (the project's widgetTexts for that language) in place of
 * the built-in ones. Only the replaceable keys, only non-blank strings: the configuration is the server's,
 * but an old or odd one must not blank the panel. Components render these as text nodes, never as markup.
 */
export function messagesWith(language: string, own: WidgetTextSet | undefined): Messages {
  const messages = { ...messagesFor(language) };
  for (const key of replaceable) {
    const text = own?.[key as WidgetTextKey];
    if (typeof text === 'string' && text.trim()) messages[key] = text;
  }
  return messages;
}

/** Replaces each `{name}` with `vars[name]`; unknown placeholders stay as they are. */
export function format(text: string, vars: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
}
