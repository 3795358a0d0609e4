/**
 * The widget's six languages (SPEC.md section 3 widgetLanguage). All six are bundled: the app is loaded
 * once per visitor, and one file per language would cost a second request on the first open.
 */
import type { WidgetConfig } from '../../../functions/shared/widget-config';
import cs from './cs';
import de from './de';
import en, { type Messages } from './en';
import es from './es';
import fr from './fr';
import ru from './ru';

export type { Messages };
export type MessageKey = keyof Messages;

export const languages: Record<WidgetConfig['language'], Messages> = { en, cs, fr, de, ru, es };

/** The texts of `language`, English for anything unknown. */
export function messagesFor(language: string): Messages {
  return languages[language as WidgetConfig['language']] ?? en;
}

/** Replaces each `{name}` with `vars[name]`; unknown placeholders stay as they are. */
export function format(text: string, vars: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
}
