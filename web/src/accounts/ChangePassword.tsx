/**
 * Profile, change password (SPEC.md sections 4 and 8): the current and the new password
 * (PATCH /client/password). An account that signs in with Google only has no password to change.
 */
import { Alert, Button, Group, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconInfoCircle } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ErrorCode } from '#contracts/errors';
import { passwordChangeSchema } from '#contracts/schemas';
import { errorCodeOf } from '../api';
import type { Profile } from '../api/types';
import { ErrorAlert } from '../components/ErrorAlert';
import { Section } from '../components/Section';
import { toastSuccess } from '../components/toast';
import { schemaValidator } from '../forms/validate';
import { errorText } from '../i18n';
import { changePassword } from './data';
import { PasswordField } from './PasswordField';

type PasswordValues = { oldPassword: string; newPassword: string };

/** SPEC.md section 8: two codes have their own message, every other failure reads 'Error updating data'. */
function passwordErrorCode(code: ErrorCode): ErrorCode {
  return code === 'INVALID_PASSWORD' || code === 'USER_PASSWORD_LENGTH' ? code : 'SYSTEM_ERROR';
}

export function ChangePassword({ profile }: { profile: Profile }) {
  const { t } = useTranslation();
  const [errorCode, setErrorCode] = useState<ErrorCode | null>(null);
  const [saving, setSaving] = useState(false);
  const form = useForm<PasswordValues>({
    initialValues: { oldPassword: '', newPassword: '' },
    validate: schemaValidator<PasswordValues>(passwordChangeSchema),
    validateInputOnBlur: true,
  });

  async function save(values: PasswordValues) {
    setSaving(true);
    setErrorCode(null);
    try {
      await changePassword(values);
      form.reset();
      toastSuccess(t('profileEdit.password.saved'));
    } catch (error) {
      setErrorCode(passwordErrorCode(errorCodeOf(error)));
    } finally {
      setSaving(false);
    }
  }

  return (
    <Section
      title={t('profileEdit.password.title')}
      description={t('profileEdit.password.description')}
      labelId="profile-password"
    >
      {profile.hasPassword === false ? (
        <Alert variant="light" color="gray" icon={<IconInfoCircle size={18} />}>
          {t('profileEdit.password.googleOnly')}
        </Alert>
      ) : (
        <form onSubmit={form.onSubmit(save)} noValidate>
          <Stack gap="md">
            {errorCode && <ErrorAlert>{errorText(errorCode, 'passwordChange')}</ErrorAlert>}
            {/* Password managers file the new password under the account they find in the same form. */}
            <input
              type="email"
              name="username"
              autoComplete="username"
              value={profile.username}
              readOnly
              hidden
            />
            <PasswordField
              label={t('profileEdit.password.current')}
              autoComplete="current-password"
              required
              key={form.key('oldPassword')}
              {...form.getInputProps('oldPassword')}
            />
            <PasswordField
              label={t('profileEdit.password.new')}
              description={t('profileEdit.password.newHint')}
              autoComplete="new-password"
              required
              key={form.key('newPassword')}
              {...form.getInputProps('newPassword')}
            />
            <Group justify="flex-end">
              <Button type="submit" loading={saving}>
                {t('profileEdit.password.save')}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Section>
  );
}
