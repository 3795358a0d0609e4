/**
 * Adds the integrations' settings texts (web/src/i18n/integrations.ts) to both languages' catalogues when
 * the Integration screen loads. Deep and without overwriting, so it is the same whether the language's main
 * catalogue came first or comes later.
 */
import { i18n } from '../i18n';
import { integrationTexts } from '../i18n/integrations';

for (const [lang, texts] of Object.entries(integrationTexts)) {
  i18n.addResourceBundle(lang, 'translation', { integrationScreen: texts }, true, false);
}
