/**
 * Adds the replay's texts (web/src/i18n/replay.ts) to both languages' catalogues when a part that shows
 * them loads: the issue page's Replay section, the player, the public replay page. Deep and without
 * overwriting, so it is the same whether the language's main catalogue came first or comes later.
 */
import { i18n } from '../i18n';
import { replayTexts } from '../i18n/replay';

for (const [lang, texts] of Object.entries(replayTexts)) {
  i18n.addResourceBundle(lang, 'translation', { replay: texts }, true, false);
}
