/**
 * Configuration, Custom fields (SPEC.md section 4): up to the limit of name and CSS selector pairs, whose
 * page values the widget sends with each report. Each row is checked by the shared customFieldSchema.
 */
import { Button, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ErrorCode } from '#contracts/errors';
import { limits } from '#contracts/limits';
import { customFieldSchema } from '#contracts/schemas';
import type { ProjectSettings } from '../api/types';
import { ErrorAlert } from '../components/ErrorAlert';
import { PairRows } from '../components/PairRows';
import { Section } from '../components/Section';
import { toastSuccess } from '../components/toast';
import { showSaveError } from '../forms/validate';
import { errorText } from '../i18n';
import { saveProject } from './data';

type Website = ProjectSettings;

type FieldsValues = { customFields: { name: string; selector: string }[] };

export function CustomFields({ website }: { website: Website }) {
  const { t } = useTranslation();
  const [saving, setSaving] = useState(false);
  const [errorCode, setErrorCode] = useState<ErrorCode | null>(null);
  const form = useForm<FieldsValues>({
    initialValues: { customFields: website.data.customFields },
    validate: {
      customFields: {
        name: (value) =>
          value.trim() === ''
            ? t('validation.required')
            : customFieldSchema.shape.name.safeParse(value).success
              ? null
              : t('validation.invalid'),
        selector: (value) =>
          value.trim() === ''
            ? t('validation.required')
            : customFieldSchema.shape.selector.safeParse(value).success
              ? null
              : t('customFields.selectorInvalid'),
      },
    },
    validateInputOnBlur: true,
  });
  const max = limits.projectCustomFields;

  async function save(values: FieldsValues) {
    setSaving(true);
    setErrorCode(null);
    try {
      const customFields = values.customFields.map((f) => ({
        name: f.name.trim(),
        selector: f.selector.trim(),
      }));
      const saved = await saveProject(website.uuid, { data: { customFields } });
      form.setInitialValues({ customFields: saved.website.data.customFields });
      form.setValues({ customFields: saved.website.data.customFields });
      toastSuccess(t('project.saved'));
    } catch (error) {
      showSaveError(form, error, setErrorCode);
    } finally {
      setSaving(false);
    }
  }

  return (
    <Section
      title={t('customFields.title')}
      description={t('customFields.description')}
      labelId="custom-fields"
    >
      <form onSubmit={form.onSubmit(save)} noValidate>
        <Stack gap="md">
          {errorCode && <ErrorAlert>{errorText(errorCode, 'integrationSave')}</ErrorAlert>}
          <PairRows
            form={form}
            field="customFields"
            max={max}
            testId="custom-field-row"
            columns={[
              {
                key: 'name',
                label: t('customFields.name'),
                placeholder: t('customFields.namePlaceholder'),
                maxLength: 50,
              },
              {
                key: 'selector',
                label: t('customFields.selector'),
                placeholder: t('customFields.selectorPlaceholder'),
                maxLength: 100,
                code: true,
              },
            ]}
            texts={{
              add: t('customFields.add'),
              empty: t('customFields.empty'),
              remove: (index) => t('customFields.remove', { index }),
              limit: t('customFields.limit', { count: max }),
            }}
            actions={
              <Button type="submit" loading={saving}>
                {t('project.save')}
              </Button>
            }
          />
        </Stack>
      </form>
    </Section>
  );
}
