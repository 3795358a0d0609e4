/**
 * /registration (SPEC.md sections 2 and 5): names, work email, password and the proof of work. Submit
 * stays disabled until the altcha widget has solved its challenge; success goes to /confirm_registration
 * with the address the confirmation mail went to.
 */
import { Anchor, Button, Divider, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import type { ErrorCode } from '#contracts/errors';
import { limits } from '#contracts/limits';
import { registrationSchema } from '#contracts/schemas';
import type { AltchaHandle } from '../accounts/AltchaField';
import { AuthHeading } from '../accounts/AuthHeading';
import { GoogleButton } from '../accounts/GoogleButton';
import { NameFields } from '../accounts/NameFields';
import { PasswordField } from '../accounts/PasswordField';
import { ProofOfWork } from '../accounts/ProofOfWork';
import { api, errorCodeOf } from '../api';
import { paths } from '../app/paths';
import { ErrorAlert } from '../components/ErrorAlert';
import { config } from '../config';
import { schemaValidator } from '../forms/validate';
import { useDocumentTitle } from '../hooks/title';
import { errorText } from '../i18n';

type RegistrationValues = { firstName: string; lastName: string; _username: string; _password: string };

const formSchema = registrationSchema.omit({ altcha: true });

export default function RegistrationScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  useDocumentTitle(t('screens.registration'));

  const [payload, setPayload] = useState<string | null>(null);
  const altcha = useRef<AltchaHandle>(null);
  const [errorCode, setErrorCode] = useState<ErrorCode | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const form = useForm<RegistrationValues>({
    initialValues: { firstName: '', lastName: '', _username: '', _password: '' },
    validate: schemaValidator<RegistrationValues>(formSchema),
    validateInputOnBlur: true,
  });

  async function submit(values: RegistrationValues) {
    if (!payload) return;
    setSubmitting(true);
    setErrorCode(null);
    try {
      const { username } = await api.call('auth.register', {
        body: { ...values, altcha: payload },
      });
      navigate(paths.confirmRegistration(username ?? values._username.trim().toLowerCase()));
    } catch (error) {
      setErrorCode(errorCodeOf(error));
      setSubmitting(false);
      // The server accepts a solved challenge once, whatever the outcome: solve a new one for the retry.
      altcha.current?.renew();
    }
  }

  return (
    <Stack gap="lg">
      <AuthHeading title={t('registration.title')} subtitle={t('registration.subtitle')} />

      {errorCode && <ErrorAlert>{errorText(errorCode, 'registration')}</ErrorAlert>}

      <form onSubmit={form.onSubmit(submit)} noValidate>
        <Stack gap="md">
          <NameFields
            form={form}
            labels={{ firstName: t('registration.firstName'), lastName: t('registration.lastName') }}
            placeholders={{
              firstName: t('registration.firstNamePlaceholder'),
              lastName: t('registration.lastNamePlaceholder'),
            }}
          />
          <TextInput
            label={t('registration.email')}
            placeholder={t('registration.emailPlaceholder')}
            type="email"
            autoComplete="email"
            maxLength={limits.loginInputMax}
            required
            key={form.key('_username')}
            {...form.getInputProps('_username')}
          />
          <PasswordField
            label={t('registration.password')}
            description={t('registration.passwordHint')}
            autoComplete="new-password"
            required
            key={form.key('_password')}
            {...form.getInputProps('_password')}
          />
          <ProofOfWork altcha={altcha} onPayload={setPayload} />
          <Button
            type="submit"
            size="md"
            fullWidth
            loading={submitting}
            disabled={!payload}
            aria-describedby={payload ? undefined : 'registration-proof-waiting'}
          >
            {t('registration.submit')}
          </Button>
          {!payload && !submitting && (
            <Text id="registration-proof-waiting" size="xs" c="dimmed" ta="center" mt={-8}>
              {t('registration.proofWaiting')}
            </Text>
          )}
        </Stack>
      </form>

      {config.googleClientId && (
        <>
          <Divider label={t('login.or')} labelPosition="center" />
          <GoogleButton label={t('registration.google')} mode="signup" onError={setErrorCode} />
        </>
      )}

      <Text size="sm" ta="center" c="dimmed">
        {t('registration.haveAccount')}{' '}
        <Anchor component={Link} to={paths.login} fw={600}>
          {t('registration.signIn')}
        </Anchor>
      </Text>
    </Stack>
  );
}
