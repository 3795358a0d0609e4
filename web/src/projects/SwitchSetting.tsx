/**
 * Configuration, General: a project setting that is one switch with its own Save (strict privacy mode, the
 * similar-reports rule). One component, so each such setting saves, reports a refusal and announces the
 * save the same way; the wrappers (PrivacyMode, SimilarRule) say what their switch means.
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

/** The project settings that are a plain on/off with a section of their own. */
export type SwitchField = 'strictPrivacy' | 'linkExactMatches';

/** The section's texts, in the reader's language. */
export interface SwitchTexts {
  title: string;
  description: string;
  label: string;
  hint: string;
  save: string;
  saved: string;
}

export function SwitchSetting({
  website,
  field,
  texts,
  labelId,
}: {
  website: ProjectSettings;
  field: SwitchField;
  texts: SwitchTexts;
  labelId: string;
}) {
  const { t } = useTranslation();
  const [saved, setSaved] = useState(website.data[field] === true);
  const [value, setValue] = useState(saved);
  const [saving, setSaving] = useState(false);
  const [errorCode, setErrorCode] = useState<ErrorCode | null>(null);

  async function save(event: React.FormEvent) {
    event.preventDefault();
    setSaving(true);
    setErrorCode(null);
    try {
      const answer = await saveProject(website.uuid, { data: { [field]: value } });
      const next = answer.website.data[field] === true;
      setSaved(next);
      setValue(next);
      toastSuccess(texts.saved);
    } catch (error) {
      setErrorCode(((error as { code?: ErrorCode }).code ?? 'SYSTEM_ERROR') as ErrorCode);
    } finally {
      setSaving(false);
    }
  }

  return (
    <Section title={texts.title} description={texts.description} labelId={labelId}>
      <form onSubmit={save} noValidate>
        <Stack gap="md">
          {errorCode && <ErrorAlert>{errorText(errorCode, 'profileUpdate')}</ErrorAlert>}
          <Switch
            name={field}
            label={texts.label}
            description={texts.hint}
            size="md"
            onLabel={t('onboarding.on')}
            offLabel={t('onboarding.off')}
            checked={value}
            onChange={(e) => setValue(e.currentTarget.checked)}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={saving} disabled={value === saved}>
              {texts.save}
            </Button>
          </Group>
        </Stack>
      </form>
    </Section>
  );
}
