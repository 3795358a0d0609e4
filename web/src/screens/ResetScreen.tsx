/**
 * /reset (SPEC.md section 2): one email field and a send button (POST /restore/password). After success
 * a confirmation text replaces the form, with a link back to login.
 */
import { Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { ErrorCode } from '#contracts/errors';
import { limits } from '#contracts/limits';
import { usernameOnlySchema } from '#contracts/schemas';
import { AuthHeading } from '../accounts/AuthHeading';
import { requestReset } from '../accounts/data';
import { ResetSent } from '../accounts/ResetSent';
import { errorCodeOf } from '../api';
import { ErrorAlert } from '../components/ErrorAlert';
import { schemaValidator } from '../forms/validate';
import { useDocumentTitle } from '../hooks/title';
import { errorText } from '../i18n';
import { paths } from '../paths';

type ResetValues = { _username: string };

export default function ResetScreen() {
  const { t } = useTranslation();
  useDocumentTitle(t('screens.reset'));
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [errorCode, setErrorCode] = useState<ErrorCode | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const form = useForm<ResetValues>({
    initialValues: { _username: '' },
    validate: schemaValidator<ResetValues>(usernameOnlySchema),
    validateInputOnBlur: true,
  });

  async function submit(values: ResetValues) {
    setSubmitting(true);
    setErrorCode(null);
    try {
      await requestReset(values);
      setSentTo(values._username.trim());
    } catch (error) {
      setErrorCode(errorCodeOf(error));
    } finally {
      setSubmitting(false);
    }
  }

  if (sentTo) return <ResetSent sentTo={sentTo} />;

  return (
    <Stack gap="lg">
      <AuthHeading title={t('reset.title')} subtitle={t('reset.subtitle')} />
      {errorCode && <ErrorAlert>{errorText(errorCode)}</ErrorAlert>}
      <form onSubmit={form.onSubmit(submit)} noValidate>
        <Stack gap="md">
          <TextInput
            label={t('reset.email')}
            placeholder={t('reset.emailPlaceholder')}
            type="email"
            autoComplete="email"
            maxLength={limits.loginInputMax}
            required
            key={form.key('_username')}
            {...form.getInputProps('_username')}
          />
          <Button type="submit" size="md" fullWidth loading={submitting}>
            {t('reset.submit')}
          </Button>
        </Stack>
      </form>
      <Text size="sm" ta="center" c="dimmed">
        {t('reset.remembered')}{' '}
        <Anchor component={Link} to={paths.login} fw={600}>
          {t('reset.back')}
        </Anchor>
      </Text>
    </Stack>
  );
}
