/**
 * What every integration form shares: the save action (busy state, the toast naming what was saved,
 * errors on the inputs the API names or else 'Update failed'), the Active switch and the Save row; and
 * what the token-authorised trackers' forms share (GitHub, GitLab, Jira, Linear): the token input and
 * the two-way sync's options.
 */
import { Alert, Button, Checkbox, Group, PasswordInput, Switch, Text, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { IconCircleCheck } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ErrorCode } from '#contracts/errors';
import type { IntegrationName } from '#contracts/integrations';
import type { SyncOptions } from '#contracts/sync';
import { ErrorAlert } from '../components/ErrorAlert';
import { toastSuccess } from '../components/toast';
import { showSaveError } from '../forms/validate';
import { errorText } from '../i18n';
import { integrationFieldPath } from './model';

/**
 * `save(run)`: runs one save of integration `name`; the values it answers become the form's saved state
 * (not dirty). The `error` element shows a failure the inputs could not.
 */
export function useIntegrationSave<T extends Record<string, unknown>>(
  form: UseFormReturnType<T>,
  name: IntegrationName,
) {
  const { t } = useTranslation();
  const [saving, setSaving] = useState(false);
  const [errorCode, setErrorCode] = useState<ErrorCode | null>(null);
  async function save(run: () => Promise<T | undefined>) {
    setSaving(true);
    setErrorCode(null);
    try {
      const fresh = await run();
      if (fresh) {
        form.setInitialValues(fresh);
        form.setValues(fresh);
      }
      toastSuccess(t(`integrationScreen.savedToast.${name}`));
    } catch (error) {
      showSaveError(form, error, setErrorCode, integrationFieldPath);
    } finally {
      setSaving(false);
    }
  }
  const error = errorCode ? <ErrorAlert>{errorText(errorCode, 'integrationSave')}</ErrorAlert> : null;
  return { save, saving, error, setErrorCode };
}

export function ActiveSwitch<T extends { active: boolean }>({
  form,
  hint,
}: {
  form: UseFormReturnType<T>;
  hint?: string;
}) {
  const { t } = useTranslation();
  return (
    <Switch
      size="md"
      label={t('integrationScreen.active')}
      description={hint ?? t('integrationScreen.activeHint')}
      key={form.key('active')}
      {...form.getInputProps('active', { type: 'checkbox' })}
    />
  );
}

export function SaveRow({ saving, dirty }: { saving: boolean; dirty: boolean }) {
  const { t } = useTranslation();
  return (
    <Group justify="flex-end">
      <Button type="submit" loading={saving} disabled={!dirty}>
        {t('integrationScreen.save')}
      </Button>
    </Group>
  );
}

/**
 * "Authorized" after a vendor accepted the token or the consent, with the way to reset it, and until the
 * integration is switched on, what to do next (the token, GitHub and OAuth screens share it).
 */
export function AuthorizedNotice({ reset, active }: { reset: ReactNode; active: number }) {
  const { t } = useTranslation();
  return (
    <Alert color="teal" variant="light" icon={<IconCircleCheck size={18} />} role="status">
      <Group gap="xs" justify="space-between">
        <Text size="sm">{t('integrationScreen.authorized')}</Text>
        {reset}
      </Group>
      {active !== 1 && (
        <Text size="sm" mt={4} data-testid="integration-next-step">
          {t('integrationScreen.nextStep')}
        </Text>
      )}
    </Alert>
  );
}

/**
 * The token of a token-authorised integration: typed until it is authorised, then the server's masked
 * value, read-only (the token is stored and never shown again).
 */
export function TokenInput<T extends { key: string }>({
  form,
  masked,
  label,
  hint,
  placeholder,
}: {
  form: UseFormReturnType<T>;
  /** The stored token as the server masks it, once authorised. */
  masked: string | null;
  label: string;
  hint: string;
  placeholder?: string;
}) {
  if (masked !== null) return <TextInput label={label} value={masked} readOnly />;
  return (
    <PasswordInput
      label={label}
      description={hint}
      placeholder={placeholder}
      withAsterisk
      maxLength={1000}
      autoComplete="off"
      key={form.key('key')}
      {...form.getInputProps('key')}
    />
  );
}

const syncOptionNames = ['syncState', 'syncComments', 'publicTrackerComments'] as const;

/** The two-way sync's options of a tracker (issue 24), each naming the tracker. */
export function SyncOptionFields<T extends SyncOptions>({
  form,
  tracker,
}: {
  form: UseFormReturnType<T>;
  /** The tracker's name as the screen shows it. */
  tracker: string;
}) {
  const { t } = useTranslation();
  return (
    <>
      <Text fw={600} size="sm" mt="xs">
        {t('integrationScreen.trackerSync.optionsTitle')}
      </Text>
      {syncOptionNames.map((option) => (
        <Checkbox
          key={form.key(option)}
          label={t(`integrationScreen.trackerSync.${option}`, { tracker })}
          {...form.getInputProps(option, { type: 'checkbox' })}
        />
      ))}
    </>
  );
}
