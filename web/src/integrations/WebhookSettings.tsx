/**
 * Webhooks (SPEC.md sections 2 and 5; payload and signature in docs/webhooks.md): an https URL, required
 * only while enabled, and the token that signs each delivery. The token is shown masked once saved;
 * typing a new one replaces it.
 */
import { Button, Group, PasswordInput, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ErrorCode } from '../../../functions/shared/errors';
import { ErrorAlert } from '../components/ErrorAlert';
import { Section } from '../components/Section';
import { toastSuccess } from '../components/toast';
import { showSaveError } from '../forms/validate';
import { errorText } from '../i18n';
import { saveIntegration } from './hooks';
import type { ViewOf } from './model';

interface WebhookValues {
  active: boolean;
  url: string;
  token: string;
}

const valuesOf = (view: ViewOf<'webhooks'>): WebhookValues => ({
  active: view.active === 1,
  url: view.data.url,
  token: view.data.token,
});

export function WebhookSettings({ projectId, view }: { projectId: string; view: ViewOf<'webhooks'> }) {
  const { t } = useTranslation();
  const [saving, setSaving] = useState(false);
  const [errorCode, setErrorCode] = useState<ErrorCode | null>(null);
  const form = useForm<WebhookValues>({
    initialValues: valuesOf(view),
    validate: {
      url: (value, values) => {
        const v = value.trim();
        if (v === '') return values.active ? t('validation.required') : null;
        return /^https:\/\/[^\s/]+/i.test(v) ? null : t('integrationScreen.httpsOnly');
      },
    },
    validateInputOnBlur: true,
  });

  async function save(values: WebhookValues) {
    setSaving(true);
    setErrorCode(null);
    try {
      const saved = await saveIntegration(projectId, {
        name: 'webhooks',
        active: values.active ? 1 : 0,
        data: { url: values.url.trim(), token: values.token },
      });
      const fresh = valuesOf(saved);
      form.setInitialValues(fresh);
      form.setValues(fresh);
      toastSuccess(t('integrationScreen.saved'));
    } catch (error) {
      showSaveError(form, error, setErrorCode);
    } finally {
      setSaving(false);
    }
  }

  return (
    <Section
      title={t('integrations.webhooks')}
      description={t('integrationScreen.webhooks.description')}
      labelId="integration-webhooks"
    >
      <form onSubmit={form.onSubmit(save)} noValidate>
        <Stack gap="md">
          {errorCode && <ErrorAlert>{errorText(errorCode, 'integrationSave')}</ErrorAlert>}
          <Switch
            size="md"
            label={t('integrationScreen.active')}
            description={t('integrationScreen.activeHint')}
            key={form.key('active')}
            {...form.getInputProps('active', { type: 'checkbox' })}
          />
          <TextInput
            type="url"
            label={t('integrationScreen.webhooks.url')}
            placeholder="https://example.com/snag-webhook"
            withAsterisk={form.getValues().active}
            maxLength={2000}
            key={form.key('url')}
            {...form.getInputProps('url')}
          />
          <PasswordInput
            label={t('integrationScreen.webhooks.token')}
            description={t('integrationScreen.webhooks.tokenHint')}
            maxLength={1000}
            autoComplete="off"
            key={form.key('token')}
            {...form.getInputProps('token')}
          />
          <Text size="sm" c="dimmed">
            {t('integrationScreen.webhooks.docs')}
          </Text>
          <Group justify="flex-end">
            <Button type="submit" loading={saving} disabled={!form.isDirty()}>
              {t('integrationScreen.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Section>
  );
}
