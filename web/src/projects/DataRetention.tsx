/**
 * Configuration, General: how long the project keeps resolved issues (docs/retention.md): 30, 90, 180 or
 * 365 days after they were resolved, or forever. Says that copies in trackers are not touched, since a
 * client who reads "deleted" would otherwise expect the Jira ticket to go too.
 */
import { Alert, Button, Group, Radio, Stack } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ErrorCode } from '#contracts/errors';
import { type RetentionDays, retentionPeriods } from '#contracts/schemas';
import type { ProjectSettings } from '../api/types';
import { ErrorAlert } from '../components/ErrorAlert';
import { Section } from '../components/Section';
import { toastSuccess } from '../components/toast';
import { errorText } from '../i18n';
import { saveProject } from './data';

const FOREVER = 'forever';
const choiceOf = (days: RetentionDays | undefined) => (days ? String(days) : FOREVER);
const daysOf = (value: string): RetentionDays =>
  value === FOREVER ? null : (Number(value) as Exclude<RetentionDays, null>);

export function DataRetention({ website }: { website: ProjectSettings }) {
  const { t } = useTranslation();
  const [saved, setSaved] = useState(choiceOf(website.data.retentionDays));
  const [value, setValue] = useState(saved);
  const [saving, setSaving] = useState(false);
  const [errorCode, setErrorCode] = useState<ErrorCode | null>(null);

  async function save(event: React.FormEvent) {
    event.preventDefault();
    setSaving(true);
    setErrorCode(null);
    try {
      const answer = await saveProject(website.uuid, { data: { retentionDays: daysOf(value) } });
      const next = choiceOf(answer.website.data.retentionDays);
      setSaved(next);
      setValue(next);
      toastSuccess(t('retention.saved'));
    } catch (error) {
      setErrorCode(((error as { code?: ErrorCode }).code ?? 'SYSTEM_ERROR') as ErrorCode);
    } finally {
      setSaving(false);
    }
  }

  return (
    <Section
      title={t('retention.title')}
      description={t('retention.description')}
      labelId="project-retention"
    >
      <form onSubmit={save} noValidate>
        <Stack gap="md">
          {errorCode && <ErrorAlert>{errorText(errorCode, 'profileUpdate')}</ErrorAlert>}
          <Radio.Group label={t('retention.label')} value={value} onChange={setValue} name="retentionDays">
            <Stack gap="xs" mt={6}>
              <Radio value={FOREVER} label={t('retention.forever')} />
              {retentionPeriods.map((days) => (
                <Radio key={days} value={String(days)} label={t('retention.days', { count: days })} />
              ))}
            </Stack>
          </Radio.Group>
          <Alert variant="light" color="gray">
            {t('retention.trackers')}
          </Alert>
          <Group justify="flex-end">
            <Button type="submit" loading={saving} disabled={value === saved}>
              {t('retention.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Section>
  );
}
