/**
 * /profile/widget/{id} (SPEC.md sections 2, 3, 5 and 6): every appearance setting of the widget, with the
 * plan-gated toggles shown only when the plan allows them, and a live preview of the launcher rendered by
 * the loader's own code (widget/src/launcher.ts) with the unsaved values. The parts live in
 * web/src/projects/.
 */
import { Button, Grid, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import type { PlanSettings } from '#contracts/plans';
import { useProfile } from '../accounts/data';
import { type ProjectSettings, settingsOf } from '../api/types';
import { ErrorAlert } from '../components/ErrorAlert';
import { PageLoader } from '../components/PageLoader';
import { useDocumentTitle } from '../hooks/title';
import { errorText } from '../i18n';
import { useProject } from '../projects/data';
import { ProjectHeader } from '../projects/ProjectHeader';
import { ReporterUpdates } from '../projects/ReporterUpdates';
import { useWidgetForm } from '../projects/useWidgetForm';
import { WidgetFeatures } from '../projects/WidgetFeatures';
import { WidgetLook } from '../projects/WidgetLook';
import { WidgetPreview } from '../projects/WidgetPreview';
import { WidgetTextsSection } from '../projects/WidgetTexts';

export default function WidgetScreen() {
  const { t } = useTranslation();
  useDocumentTitle(t('screens.widget'));
  const { id } = useParams();
  const { data } = useProject(id);
  const { data: profile } = useProfile();
  if (!data || !profile) return <PageLoader />;
  // Behind the settings gate: only a GUEST's answer lacks the settings, and a GUEST is refused before this.
  const website = settingsOf(data.website);
  if (!website) return null;
  return <WidgetForm key={website.uuid} website={website} plan={profile.settings} />;
}

function WidgetForm({ website, plan }: { website: ProjectSettings; plan: PlanSettings | undefined }) {
  const { t } = useTranslation();
  const { form, offered, saving, errorCode, save } = useWidgetForm(website, plan);

  return (
    <Stack gap="lg" maw={1200} mx="auto">
      <ProjectHeader project={website} title={t('screens.widget')} subtitle={t('widget.subtitle')} />
      <form onSubmit={form.onSubmit(save)} noValidate>
        <Grid gap="lg" align="flex-start">
          <Grid.Col span={{ base: 12, lg: 7 }}>
            <Stack gap="lg">
              {errorCode && <ErrorAlert>{errorText(errorCode, 'integrationSave')}</ErrorAlert>}
              <WidgetLook form={form} />
              <WidgetFeatures form={form} offered={offered} />
              <WidgetTextsSection form={form} />
              <ReporterUpdates form={form} projectName={website.name} />
              <Group justify="flex-end" gap="sm">
                {form.isDirty() && (
                  <Text size="sm" c="dimmed" mr="auto">
                    {t('project.unsaved')}
                  </Text>
                )}
                <Button variant="default" onClick={() => form.reset()} disabled={!form.isDirty() || saving}>
                  {t('project.discard')}
                </Button>
                {/* Nothing changed, nothing to save. */}
                <Button type="submit" loading={saving} disabled={!form.isDirty()}>
                  {t('project.save')}
                </Button>
              </Group>
            </Stack>
          </Grid.Col>
          <Grid.Col span={{ base: 12, lg: 5 }} style={{ position: 'sticky', top: 88 }}>
            <WidgetPreview website={website} values={form.values} />
          </Grid.Col>
        </Grid>
      </form>
    </Stack>
  );
}
