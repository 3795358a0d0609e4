/**
 * Adds the API reference's texts (web/src/i18n/apiReference.ts) to both languages' catalogues when the API
 * reference screen loads. Deep and without overwriting, so it is the same whether the language's main
 * catalogue came first or comes later.
 */
import { i18n } from '../i18n';
import { apiReferenceTexts } from '../i18n/apiReference';

for (const [lang, texts] of Object.entries(apiReferenceTexts)) {
  i18n.addResourceBundle(lang, 'translation', { apiReference: texts }, true, false);
}
