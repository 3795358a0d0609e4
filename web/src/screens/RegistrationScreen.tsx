/**
 * /registration (SPEC.md sections 2 and 5): the registration form; success goes to /confirm_registration
 * with the address the confirmation mail went to. A safe `next` (paths.ts `safeNext`: the page that sent
 * the user to sign in, e.g. the extension's connect page) travels on, and is remembered for the emailed
 * link (accounts/return-after-confirm.ts), so the new user ends where they started.
 */
import { Anchor, Divider, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import type { ErrorCode } from '#contracts/errors';
import { AuthHeading } from '../accounts/AuthHeading';
import { GoogleButton } from '../accounts/GoogleButton';
import { RegistrationForm } from '../accounts/RegistrationForm';
import { rememberReturn } from '../accounts/return-after-confirm';
import { ErrorAlert } from '../components/ErrorAlert';
import { config } from '../config';
import { useDocumentTitle } from '../hooks/title';
import { errorText } from '../i18n';
import { paths, safeNext } from '../paths';

export default function RegistrationScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const next = safeNext(useLocation().search);
  useDocumentTitle(t('screens.registration'));
  const [errorCode, setErrorCode] = useState<ErrorCode | null>(null);

  return (
    <Stack gap="lg">
      <AuthHeading title={t('registration.title')} subtitle={t('registration.subtitle')} />

      {errorCode && <ErrorAlert>{errorText(errorCode, 'registration')}</ErrorAlert>}

      <RegistrationForm
        onError={setErrorCode}
        onRegistered={(username) => {
          rememberReturn(username, next);
          navigate(paths.confirmRegistration(username, next));
        }}
      />

      {config.googleClientId && (
        <>
          <Divider label={t('login.or')} labelPosition="center" />
          <GoogleButton label={t('registration.google')} mode="signup" onError={setErrorCode} />
        </>
      )}

      <Text size="sm" ta="center" c="dimmed">
        {t('registration.haveAccount')}{' '}
        <Anchor component={Link} to={next ? paths.loginThen(next) : paths.login} fw={600}>
          {t('registration.signIn')}
        </Anchor>
      </Text>
    </Stack>
  );
}
