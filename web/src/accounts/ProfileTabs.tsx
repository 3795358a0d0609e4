/** The profile settings' sections as tabs: the account itself, and its connected browser extensions. */
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { SectionTabs } from '../components/SectionTabs';
import { paths } from '../paths';

const sections = ['account', 'extension'] as const;
type ProfileSection = (typeof sections)[number];
const pathOf: Record<ProfileSection, string> = {
  account: paths.profileEdit,
  extension: paths.profileExtensions,
};

export function ProfileTabs({ value }: { value: ProfileSection }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <SectionTabs
      value={value}
      sections={sections}
      label={t('extension.tabs.label')}
      labelOf={(s) => t(`extension.tabs.${s}`)}
      onChange={(s) => navigate(pathOf[s])}
      keepMounted={false}
    />
  );
}
