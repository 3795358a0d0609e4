/**
 * /profile/edit (SPEC.md sections 2, 4, 5 and 8): personal data (PATCH /client/profile), change password
 * (PATCH /client/password) and delete profile (DELETE /client/profile behind a modal where typing the
 * word "confirm" enables Delete; afterwards the marketing site).
 */
import { Alert, Button, Group, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconInfoCircle } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { mutate } from 'swr';
import type { ErrorCode } from '#contracts/errors';
import { passwordChangeSchema, profileSchema } from '#contracts/schemas';
import { NameFields } from '../accounts/NameFields';
import { PasswordField } from '../accounts/PasswordField';
import { api, errorCodeOf } from '../api';
import { endpointPath } from '../api/endpoints';
import { leaveToMarketingSite } from '../api/session';
import { toLogin, useEndpoint } from '../api/swr';
import type { Profile } from '../api/types';
import { DeleteSection } from '../components/DeleteSection';
import { ErrorAlert } from '../components/ErrorAlert';
import { PageLoader } from '../components/PageLoader';
import { Section } from '../components/Section';
import { toastSuccess } from '../components/toast';
import { schemaValidator } from '../forms/validate';
import { useDocumentTitle } from '../hooks/useDocumentTitle';
import { errorText } from '../i18n';

const profilePath = endpointPath('profile.get');

export default function ProfileEditScreen() {
  const { t } = useTranslation();
  useDocumentTitle(t('screens.profileEdit'));
  const { data: profile } = useEndpoint('profile.get', {}, { redirect: toLogin });
  if (!profile) return <PageLoader />;
  return (
    <Stack gap="xl" maw={960} mx="auto">
      <Stack gap={4}>
        <Title order={1} size="h2">
          {t('profileEdit.title')}
        </Title>
        <Text c="dimmed">{t('profileEdit.subtitle')}</Text>
      </Stack>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <PersonalData profile={profile} />
        <ChangePassword profile={profile} />
      </SimpleGrid>
      <DeleteProfile />
    </Stack>
  );
}

type NameValues = { firstName: string; lastName: string };

function PersonalData({ profile }: { profile: Profile }) {
  const { t } = useTranslation();
  const [errorCode, setErrorCode] = useState<ErrorCode | null>(null);
  const [saving, setSaving] = useState(false);
  const form = useForm<NameValues>({
    initialValues: { firstName: profile.firstName ?? '', lastName: profile.lastName ?? '' },
    validate: schemaValidator<NameValues>(profileSchema),
    validateInputOnBlur: true,
  });

  async function save(values: NameValues) {
    setSaving(true);
    setErrorCode(null);
    try {
      const updated = await api.call('profile.update', {
        body: { firstName: values.firstName.trim(), lastName: values.lastName.trim() },
      });
      // The top bar shows the name: update the shared profile without another round trip.
      await mutate(profilePath, updated, { revalidate: false });
      form.setValues({ firstName: updated.firstName ?? '', lastName: updated.lastName ?? '' });
      form.resetDirty();
      toastSuccess(t('profileEdit.personal.saved'));
    } catch (error) {
      setErrorCode(errorCodeOf(error));
    } finally {
      setSaving(false);
    }
  }

  return (
    <Section
      title={t('profileEdit.personal.title')}
      description={t('profileEdit.personal.description')}
      labelId="profile-personal"
    >
      <form onSubmit={form.onSubmit(save)} noValidate>
        <Stack gap="md">
          {errorCode && <ErrorAlert>{errorText(errorCode, 'profileUpdate')}</ErrorAlert>}
          <NameFields
            form={form}
            labels={{
              firstName: t('profileEdit.personal.firstName'),
              lastName: t('profileEdit.personal.lastName'),
            }}
          />
          <TextInput
            label={t('profileEdit.personal.email')}
            description={t('profileEdit.personal.emailHint')}
            value={profile.username}
            readOnly
            variant="filled"
          />
          <Group justify="flex-end">
            <Button type="submit" loading={saving}>
              {t('profileEdit.personal.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Section>
  );
}

type PasswordValues = { oldPassword: string; newPassword: string };

/** SPEC.md section 8: two codes have their own message, every other failure reads 'Error updating data'. */
function passwordErrorCode(code: ErrorCode): ErrorCode {
  return code === 'INVALID_PASSWORD' || code === 'USER_PASSWORD_LENGTH' ? code : 'SYSTEM_ERROR';
}

function ChangePassword({ profile }: { profile: Profile }) {
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
      await api.call('profile.changePassword', { body: values });
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

function DeleteProfile() {
  const { t } = useTranslation();
  return (
    <DeleteSection
      labelId="profile-delete"
      title={t('profileEdit.delete.title')}
      description={t('profileEdit.delete.description')}
      button={t('profileEdit.delete.button')}
      modalTitle={t('profileEdit.delete.modalTitle')}
      modalBody={t('profileEdit.delete.modalBody')}
      failedText={errorText('SYSTEM_ERROR', 'profileDelete')}
      onConfirm={async () => {
        const result = await api.call('profile.remove');
        await leaveToMarketingSite(result?.google === true);
      }}
    />
  );
}
