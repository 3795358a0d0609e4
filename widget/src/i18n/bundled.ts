/**
 * Every widget language. The app build replaces this module with one that holds only the project's
 * language (widget/build.ts builds one app file per language), so a visitor downloads one language, not
 * six; tests and the type checker see all of them.
 */
import type { WidgetConfig } from '#contracts/widget-config';
import cs from './cs';
import de from './de';
import en, { type Messages } from './en';
import es from './es';
import fr from './fr';
import ru from './ru';

export const languages: Partial<Record<WidgetConfig['language'], Messages>> = { en, cs, fr, de, ru, es };
