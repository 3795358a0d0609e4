/** /profile/team, the team's name: renamed by an OWNER or ADMIN (PATCH client/team/{teamId}), read by others. */
import { Button, Group, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ErrorCode } from '#contracts/errors';
import { teamUpdateSchema } from '#contracts/teams';
import { errorCodeOf } from '../api';
import { ErrorAlert } from '../components/ErrorAlert';
import { Section } from '../components/Section';
import { toastSuccess } from '../components/toast';
import { schemaValidator } from '../forms/validate';
import { errorText } from '../i18n';
import { renameTeam } from './data';

export function TeamName({ teamId, name, editable }: { teamId: string; name: string; editable: boolean }) {
  const { t } = useTranslation();
  const [errorCode, setErrorCode] = useState<ErrorCode | null>(null);
  const [saving, setSaving] = useState(false);
  const form = useForm({ initialValues: { name }, validate: schemaValidator(teamUpdateSchema) });

  async function save(values: { name: string }) {
    setSaving(true);
    setErrorCode(null);
    try {
      await renameTeam(teamId, values.name.trim());
      form.setValues({ name: values.name.trim() });
      form.resetDirty();
      toastSuccess(t('teams.name.saved'));
    } catch (error) {
      setErrorCode(errorCodeOf(error));
    } finally {
      setSaving(false);
    }
  }

  return (
    <Section title={t('teams.name.title')} labelId="team-name">
      <form onSubmit={form.onSubmit(save)} noValidate>
        <Stack gap="md">
          {errorCode && <ErrorAlert>{errorText(errorCode)}</ErrorAlert>}
          <TextInput
            label={t('teams.name.label')}
            readOnly={!editable}
            variant={editable ? 'default' : 'filled'}
            autoComplete="off"
            {...form.getInputProps('name')}
          />
          {editable && (
            <Group justify="flex-end">
              <Button type="submit" loading={saving} disabled={!form.isDirty()}>
                {t('teams.name.save')}
              </Button>
            </Group>
          )}
        </Stack>
      </form>
    </Section>
  );
}
