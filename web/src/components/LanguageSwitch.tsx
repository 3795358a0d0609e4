/** EN/DE switch; the choice is stored locally and changes every string and the API's `lng`. */
import { SegmentedControl } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { setLanguage } from '../i18n';
import { isLang, languages } from '../i18n/language';

export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  return (
    <SegmentedControl
      size="xs"
      radius="xl"
      aria-label={t('language.label')}
      value={i18n.language}
      onChange={(value) => isLang(value) && setLanguage(value)}
      data={languages.map((lang) => ({
        value: lang,
        label: <span title={t(`language.${lang}`)}>{lang.toUpperCase()}</span>,
      }))}
    />
  );
}
