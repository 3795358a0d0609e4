/**
 * Configuration, General: the project rule for similar reports (docs/similar.md "The rule"), next to
 * Privacy. Off by default; on, a new report with exactly the same page and first error as an open issue is
 * linked to it (an activity entry on both). The description says it never merges, since a silently hiding
 * duplicate filter is what people resent most.
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

export function SimilarRule({ website }: { website: ProjectSettings }) {
  const { t } = useTranslation();
  const [saved, setSaved] = useState(website.data.linkExactMatches === true);
  const [value, setValue] = useState(saved);
  const [saving, setSaving] = useState(false);
  const [errorCode, setErrorCode] = useState<ErrorCode | null>(null);

  async function save(event: React.FormEvent) {
    event.preventDefault();
    setSaving(true);
    setErrorCode(null);
    try {
      const answer = await saveProject(website.uuid, { data: { linkExactMatches: value } });
      const next = answer.website.data.linkExactMatches === true;
      setSaved(next);
      setValue(next);
      toastSuccess(t('similarRule.saved'));
    } catch (error) {
      setErrorCode(((error as { code?: ErrorCode }).code ?? 'SYSTEM_ERROR') as ErrorCode);
    } finally {
      setSaving(false);
    }
  }

  return (
    <Section
      title={t('similarRule.title')}
      description={t('similarRule.description')}
      labelId="project-similar"
    >
      <form onSubmit={save} noValidate>
        <Stack gap="md">
          {errorCode && <ErrorAlert>{errorText(errorCode, 'profileUpdate')}</ErrorAlert>}
          <Switch
            name="linkExactMatches"
            label={t('similarRule.link')}
            description={t('similarRule.linkHint')}
            size="md"
            onLabel={t('onboarding.on')}
            offLabel={t('onboarding.off')}
            checked={value}
            onChange={(e) => setValue(e.currentTarget.checked)}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={saving} disabled={value === saved}>
              {t('similarRule.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Section>
  );
}
