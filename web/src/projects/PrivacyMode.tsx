/**
 * Configuration, General: the project's strict privacy mode (docs/privacy.md "Strict privacy mode"), next
 * to Data retention. The switch's description says what it does in one sentence, since a client turns it
 * on for what it removes (query strings, later log lines, the visitor's email, replay text), and would
 * otherwise wonder later why an address has no query.
 */
import { useTranslation } from 'react-i18next';
import type { ProjectSettings } from '../api/types';
import { SwitchSetting } from './SwitchSetting';

export function PrivacyMode({ website }: { website: ProjectSettings }) {
  const { t } = useTranslation();
  const texts = {
    title: t('privacyMode.title'),
    description: t('privacyMode.description'),
    label: t('privacyMode.strict'),
    hint: t('privacyMode.strictHint'),
    save: t('privacyMode.save'),
    saved: t('privacyMode.saved'),
  };
  return <SwitchSetting website={website} field="strictPrivacy" texts={texts} labelId="project-privacy" />;
}
