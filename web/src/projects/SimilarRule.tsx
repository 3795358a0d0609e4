/**
 * Configuration, General: the project rule for similar reports (docs/similar.md "The rule"), next to
 * Privacy. Off by default; on, a new report with exactly the same page and first error as an open issue is
 * linked to it (an activity entry on both). The description says it never merges, since a silently hiding
 * duplicate filter is what people resent most.
 */
import { useTranslation } from 'react-i18next';
import type { ProjectSettings } from '../api/types';
import { SwitchSetting } from './SwitchSetting';

export function SimilarRule({ website }: { website: ProjectSettings }) {
  const { t } = useTranslation();
  const texts = {
    title: t('similarRule.title'),
    description: t('similarRule.description'),
    label: t('similarRule.link'),
    hint: t('similarRule.linkHint'),
    save: t('similarRule.save'),
    saved: t('similarRule.saved'),
  };
  return <SwitchSetting website={website} field="linkExactMatches" texts={texts} labelId="project-similar" />;
}
