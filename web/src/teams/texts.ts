/**
 * Adds the team's tools' texts (web/src/i18n/teamTools.ts: API tokens, Privacy, audit log) under `teams` to
 * both languages' catalogues when a screen that shows them loads: API tokens, Privacy, Audit log, the team
 * page (its links to them). Deep and without overwriting, so the main catalogue's other `teams` texts stay,
 * whichever came first.
 */
import { i18n } from '../i18n';
import { teamToolsTexts } from '../i18n/teamTools';

for (const [lang, texts] of Object.entries(teamToolsTexts)) {
  i18n.addResourceBundle(lang, 'translation', { teams: texts }, true, false);
}
