/**
 * Adds the insights' texts (web/src/i18n/insights.ts) to both languages' catalogues when a screen that
 * shows them loads: the project's and the team's Insights screens, the team page (its link to them). Deep
 * and without overwriting, so it is the same whether the language's main catalogue came first or comes later.
 */
import { i18n } from '../i18n';
import { insightsTexts } from '../i18n/insights';

for (const [lang, texts] of Object.entries(insightsTexts)) {
  i18n.addResourceBundle(lang, 'translation', { insights: texts }, true, false);
}
