/**
 * Configuration, General: the project's strict privacy mode (docs/privacy.md "Strict privacy mode"), next
 * to Data retention. The switch's description says what it does in one sentence, since a client turns it
 * on for what it removes (query strings, later log lines, the visitor's email, replay text), and would
 * otherwise wonder later why an address has no query.
 */
import { Button, Group, Stack, Switch } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ErrorCode } from '#contracts/errors';
import type { ProjectSettings } from '../api/types';
import { ErrorAlert } from '../components/ErrorAlert';
import { Section } from '../components/Section';
import { toastSuccess } from '../components/toast';
import { errorText } from '../i18n';
import { saveProject } from './data';

export function PrivacyMode({ website }: { website: ProjectSettings }) {
  const { t } = useTranslation();
  const [saved, setSaved] = useState(website.data.strictPrivacy === true);
  const [value, setValue] = useState(saved);
  const [saving, setSaving] = useState(false);
  const [errorCode, setErrorCode] = useState<ErrorCode | null>(null);

  async function save(event: React.FormEvent) {
    event.preventDefault();
    setSaving(true);
    setErrorCode(null);
    try {
      const answer = await saveProject(website.uuid, { data: { strictPrivacy: value } });
      const next = answer.website.data.strictPrivacy === true;
      setSaved(next);
      setValue(next);
      toastSuccess(t('privacyMode.saved'));
    } catch (error) {
      setErrorCode(((error as { code?: ErrorCode }).code ?? 'SYSTEM_ERROR') as ErrorCode);
    } finally {
      setSaving(false);
    }
  }

  return (
    <Section
      title={t('privacyMode.title')}
      description={t('privacyMode.description')}
      labelId="project-privacy"
    >
      <form onSubmit={save} noValidate>
        <Stack gap="md">
          {errorCode && <ErrorAlert>{errorText(errorCode, 'profileUpdate')}</ErrorAlert>}
          <Switch
            name="strictPrivacy"
            label={t('privacyMode.strict')}
            description={t('privacyMode.strictHint')}
            size="md"
            onLabel={t('onboarding.on')}
            offLabel={t('onboarding.off')}
            checked={value}
            onChange={(e) => setValue(e.currentTarget.checked)}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={saving} disabled={value === saved}>
              {t('privacyMode.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Section>
  );
}
