/**
 * Profile, personal data (SPEC.md sections 4 and 8): first and last name (PATCH /client/profile) beside the
 * sign-in address, which cannot change. The saved profile replaces the shared one, so the top bar follows.
 */
import { Button, Group, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ErrorCode } from '#contracts/errors';
import { profileSchema } from '#contracts/schemas';
import { errorCodeOf } from '../api';
import type { Profile } from '../api/types';
import { ErrorAlert } from '../components/ErrorAlert';
import { Section } from '../components/Section';
import { toastSuccess } from '../components/toast';
import { schemaValidator } from '../forms/validate';
import { errorText } from '../i18n';
import { saveName } from './data';
import { NameFields } from './NameFields';

type NameValues = { firstName: string; lastName: string };

export function PersonalData({ profile }: { profile: Profile }) {
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
      // The answer replaces the shared profile (the top bar shows the name).
      const updated = await saveName({
        firstName: values.firstName.trim(),
        lastName: values.lastName.trim(),
      });
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
