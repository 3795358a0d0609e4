/**
 * /profile/configuration/{id}/{installation|custom_fields|labels|general} (SPEC.md sections 2, 4 and 5):
 * the install snippet with the domain rule and how to verify it, up to 3 custom fields, the project's
 * labels (issue 23), and the general settings with the project deletion. An unknown or foreign project goes back to /profile. The parts live
 * in web/src/projects/.
 */
import { Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { settingsOf } from '../api/types';
import { PageLoader } from '../components/PageLoader';
import { SectionTabs } from '../components/SectionTabs';
import { useDocumentTitle } from '../hooks/title';
import { ProjectLabels } from '../issues/labels/ProjectLabels';
import { type ConfigurationSection, configurationSections, paths } from '../paths';
import { CustomFields } from '../projects/CustomFields';
import { useProject } from '../projects/data';
import { GeneralSettings } from '../projects/GeneralSettings';
import { Installation } from '../projects/Installation';
import { ProjectHeader } from '../projects/ProjectHeader';

export default function ConfigurationScreen({ section }: { section: ConfigurationSection }) {
  const { t } = useTranslation();
  const { id } = useParams();
  const navigate = useNavigate();
  const { data } = useProject(id);
  useDocumentTitle(`${t('screens.configuration')} · ${t(`configuration.${section}`)}`);
  if (!data || !id) return <PageLoader />;
  // Behind the settings gate: only a GUEST's answer lacks the settings, and a GUEST is refused before this.
  const website = settingsOf(data.website);
  if (!website) return null;

  return (
    <Stack gap="lg" maw={960} mx="auto">
      <ProjectHeader project={website} title={t('screens.configuration')} />
      <SectionTabs
        value={section}
        sections={configurationSections}
        label={t('project.sections')}
        labelOf={(name) => t(`configuration.${name}`)}
        onChange={(name) => navigate(paths.configuration(id, name))}
        keepMounted={false}
      />
      {section === 'installation' && <Installation website={website} />}
      {section === 'custom_fields' && <CustomFields key={website.uuid} website={website} />}
      {section === 'labels' && <ProjectLabels projectId={website.uuid} />}
      {section === 'general' && <GeneralSettings key={website.uuid} website={website} />}
    </Stack>
  );
}
