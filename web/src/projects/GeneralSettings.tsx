/**
 * Configuration, General (SPEC.md sections 4 and 5): the project's name and address, active, test mode
 * and subdomains, how long resolved issues are kept (DataRetention), and the project deletion behind the
 * typed confirmation; afterwards the dashboard.
 */
import { Button, Group, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { ErrorCode } from '#contracts/errors';
import { limits } from '#contracts/limits';
import { projectSchema } from '#contracts/schemas';
import type { ProjectSettings } from '../api/types';
import { DeleteSection } from '../components/DeleteSection';
import { ErrorAlert } from '../components/ErrorAlert';
import { Section } from '../components/Section';
import { toastSuccess } from '../components/toast';
import { useSwitches } from '../forms/switches';
import { schemaValidator, showSaveError } from '../forms/validate';
import { errorText } from '../i18n';
import { paths } from '../paths';
import { DataRetention } from './DataRetention';
import { deleteProject, saveProject } from './data';
import { PrivacyMode } from './PrivacyMode';
import { SimilarRule } from './SimilarRule';

type Website = ProjectSettings;

type GeneralValues = { name: string; url: string; active: boolean; activeParam: boolean; wildcard: boolean };

function generalValues(website: Website): GeneralValues {
  return {
    name: website.name,
    url: website.url,
    active: website.active === 1,
    activeParam: website.activeParam === 1,
    wildcard: website.data.widgetDomainWildcard,
  };
}

const nameUrlValidator = schemaValidator<{ name: string; url: string }>(
  projectSchema.pick({ name: true, url: true }),
);

export function GeneralSettings({ website }: { website: Website }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [saving, setSaving] = useState(false);
  const [errorCode, setErrorCode] = useState<ErrorCode | null>(null);
  const form = useForm<GeneralValues>({
    initialValues: generalValues(website),
    validate: (values) => nameUrlValidator({ name: values.name, url: values.url }),
    validateInputOnBlur: ['name', 'url'],
  });

  async function save(values: GeneralValues) {
    setSaving(true);
    setErrorCode(null);
    try {
      const saved = await saveProject(website.uuid, {
        name: values.name.trim(),
        url: values.url.trim(),
        active: values.active ? 1 : 0,
        activeParam: values.activeParam ? 1 : 0,
        data: { widgetDomainWildcard: values.wildcard },
      });
      const next = generalValues(saved.website);
      form.setInitialValues(next);
      form.setValues(next);
      toastSuccess(t('project.saved'));
    } catch (error) {
      showSaveError(form, error, setErrorCode);
    } finally {
      setSaving(false);
    }
  }

  const toggle = useSwitches(form);

  return (
    <Stack gap="lg">
      <Section title={t('general.title')} description={t('general.description')} labelId="project-general">
        <form onSubmit={form.onSubmit(save)} noValidate>
          <Stack gap="lg">
            {errorCode && <ErrorAlert>{errorText(errorCode, 'profileUpdate')}</ErrorAlert>}
            {/* Side by side from tablet width; one full-width column on phones. */}
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
              <TextInput
                label={t('general.name')}
                maxLength={limits.projectNameMax}
                required
                key={form.key('name')}
                {...form.getInputProps('name')}
              />
              <TextInput
                label={t('general.url')}
                description={t('general.urlHint')}
                maxLength={limits.projectUrlMax}
                autoCapitalize="off"
                spellCheck={false}
                required
                key={form.key('url')}
                {...form.getInputProps('url')}
              />
            </SimpleGrid>
            <Stack gap="md">
              {toggle('active', t('general.active'), t('general.activeHint'))}
              {toggle('activeParam', t('general.testMode'), t('general.testModeHint'))}
              {toggle('wildcard', t('general.wildcard'), t('general.wildcardHint'))}
            </Stack>
            <Group justify="flex-end">
              <Button type="submit" loading={saving} disabled={!form.isDirty()}>
                {t('project.save')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Section>
      {/* Each section starts afresh when its stored value changes; the keys name the section, since two
          siblings with one key (`<id>-false` twice) leave React a stale copy on screen. */}
      <DataRetention key={`retention-${website.uuid}-${website.data.retentionDays}`} website={website} />
      <PrivacyMode key={`privacy-${website.uuid}-${website.data.strictPrivacy}`} website={website} />
      <SimilarRule key={`similar-${website.uuid}-${website.data.linkExactMatches}`} website={website} />
      <DeleteSection
        labelId="project-delete"
        title={t('general.deleteTitle')}
        description={t('general.deleteDescription')}
        button={t('general.deleteButton')}
        modalTitle={t('general.deleteModalTitle')}
        modalBody={t('general.deleteModalBody', { name: website.name })}
        failedText={errorText('SYSTEM_ERROR', 'profileDelete')}
        onConfirm={async () => {
          await deleteProject(website.uuid);
          navigate(paths.profile, { replace: true });
        }}
      />
    </Stack>
  );
}
