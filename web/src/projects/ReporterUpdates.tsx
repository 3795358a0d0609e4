/**
 * The Widget screen's reporter updates (issue 24, docs/reporter.md): whether visitors who leave their email
 * hear back (confirmation, status page, mails on public comments and on resolution) and the name those
 * mails come from.
 */
import { Stack, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { limits } from '#contracts/limits';
import { Section } from '../components/Section';
import { useSwitches } from '../forms/switches';
import type { Appearance } from './model';

export function ReporterUpdates({
  form,
  projectName,
}: {
  form: UseFormReturnType<Appearance>;
  projectName: string;
}) {
  const { t } = useTranslation();
  const toggle = useSwitches(form);
  return (
    <Section title={t('widget.reporter')} labelId="widget-reporter">
      <Stack gap="md">
        {toggle('reporterUpdates', t('widget.reporterUpdates'), t('widget.reporterUpdatesHint'))}
        <TextInput
          label={t('widget.senderName')}
          description={t('widget.senderNameHint', { name: projectName })}
          maxLength={limits.reporterSenderNameMax}
          disabled={!form.values.reporterUpdates}
          key={form.key('reporterSenderName')}
          {...form.getInputProps('reporterSenderName')}
        />
      </Stack>
    </Section>
  );
}
