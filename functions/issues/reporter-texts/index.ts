/**
 * The reporter's texts in the six widget languages (issue 24): the mails and the status page speak the
 * language the widget spoke when the report was filed (REPORTER `lang`, else the project's
 * `widgetLanguage`), so the visitor reads what they wrote in.
 */
import type { widgetLanguages } from '#contracts/schemas';
import cs from './cs';
import de from './de';
import en, { type ReporterTexts } from './en';
import es from './es';
import fr from './fr';
import ru from './ru';

export type ReporterLang = (typeof widgetLanguages)[number];
export type { ReporterTexts };

export const reporterTexts: Record<ReporterLang, ReporterTexts> = { en, cs, fr, de, ru, es };

/** `text` with each `{name}` replaced by `values[name]` (plain text; callers escape for HTML). */
export function fill(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (m, k: string) => (k in values ? String(values[k]) : m));
}
