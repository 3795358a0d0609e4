/**
 * "Create team" (issue 22): a name, then the new team is the team in use (the caller is its OWNER), and
 * the dashboard opens on it, empty, ready for its first project.
 */
import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { ErrorCode } from '#contracts/errors';
import { teamUpdateSchema } from '#contracts/teams';
import { errorCodeOf } from '../api';
import { ErrorAlert } from '../components/ErrorAlert';
import { toastSuccess } from '../components/toast';
import { schemaValidator } from '../forms/validate';
import { errorText } from '../i18n';
import { paths } from '../paths';
import { createTeam } from './data';

export function CreateTeamDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [errorCode, setErrorCode] = useState<ErrorCode | null>(null);
  const [saving, setSaving] = useState(false);
  const form = useForm({ initialValues: { name: '' }, validate: schemaValidator(teamUpdateSchema) });

  function close() {
    if (saving) return;
    form.reset();
    setErrorCode(null);
    onClose();
  }

  async function create({ name }: { name: string }) {
    setSaving(true);
    setErrorCode(null);
    try {
      await createTeam(name.trim());
      toastSuccess(t('teams.create.created', { name: name.trim() }));
      form.reset();
      onClose();
      navigate(paths.profile);
    } catch (error) {
      setErrorCode(errorCodeOf(error));
    } finally {
      setSaving(false);
    }
  }

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={
        <Text fw={650} size="lg">
          {t('teams.create.title')}
        </Text>
      }
      centered
      radius="lg"
      closeButtonProps={{ 'aria-label': t('deleteModal.close') }}
    >
      <form onSubmit={form.onSubmit(create)} noValidate>
        <Stack gap="md">
          <Text size="sm">{t('teams.create.text')}</Text>
          {errorCode && <ErrorAlert>{errorText(errorCode)}</ErrorAlert>}
          <TextInput
            label={t('teams.name.label')}
            autoComplete="off"
            data-autofocus
            {...form.getInputProps('name')}
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close} disabled={saving}>
              {t('teams.create.cancel')}
            </Button>
            <Button type="submit" loading={saving}>
              {t('teams.create.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
