/**
 * /registration (SPEC.md sections 2 and 5): the registration form; success goes to /confirm_registration
 * with the address the confirmation mail went to.
 */
import { Anchor, Divider, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import type { ErrorCode } from '#contracts/errors';
import { AuthHeading } from '../accounts/AuthHeading';
import { GoogleButton } from '../accounts/GoogleButton';
import { RegistrationForm } from '../accounts/RegistrationForm';
import { ErrorAlert } from '../components/ErrorAlert';
import { config } from '../config';
import { useDocumentTitle } from '../hooks/title';
import { errorText } from '../i18n';
import { paths } from '../paths';

export default function RegistrationScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  useDocumentTitle(t('screens.registration'));
  const [errorCode, setErrorCode] = useState<ErrorCode | null>(null);

  return (
    <Stack gap="lg">
      <AuthHeading title={t('registration.title')} subtitle={t('registration.subtitle')} />

      {errorCode && <ErrorAlert>{errorText(errorCode, 'registration')}</ErrorAlert>}

      <RegistrationForm
        onError={setErrorCode}
        onRegistered={(username) => navigate(paths.confirmRegistration(username))}
      />

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
