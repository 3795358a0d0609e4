/** /login (SPEC.md section 2): email and password sign-in, notices from the query, social button slot. */
import { Anchor, Divider, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import type { ErrorCode } from '#contracts/errors';
import { AuthHeading } from '../accounts/AuthHeading';
import { GoogleButton } from '../accounts/GoogleButton';
import { LoginForm } from '../accounts/LoginForm';
import { LoginNoticeAlert, useLoginNotice } from '../accounts/LoginNotice';
import { loginErrorCode } from '../accounts/login-model';
import { ErrorAlert } from '../components/ErrorAlert';
import { config } from '../config';
import { useDocumentTitle } from '../hooks/title';
import { errorText } from '../i18n';
import { afterLogin, paths, safeNext } from '../paths';

export default function LoginScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  useDocumentTitle(t('login.submit'));
  const notice = useLoginNotice();
  const [errorCode, setErrorCode] = useState<ErrorCode | null>(null);
  const [retryAt, setRetryAt] = useState<string | undefined>();

  return (
    <Stack gap="lg">
      <AuthHeading title={t('login.title')} subtitle={t('login.subtitle')} />

      {notice && <LoginNoticeAlert notice={notice} />}
      {errorCode && <ErrorAlert>{errorText(errorCode, 'login', retryAt)}</ErrorAlert>}

      <LoginForm
        onError={(code, until) => {
          setErrorCode(code);
          setRetryAt(until);
        }}
        onSignedIn={() => navigate(afterLogin(location.search), { replace: true })}
      />

      {config.googleClientId && (
        <>
          <Divider label={t('login.or')} labelPosition="center" />
          <GoogleButton
            label={t('login.google')}
            onError={(code) => setErrorCode(code && code !== 'USER_EXISTS' ? loginErrorCode(code) : code)}
          />
        </>
      )}

      <Text size="sm" ta="center" c="dimmed">
        {t('login.noAccount')}{' '}
        <Anchor component={Link} to={paths.registrationThen(safeNext(location.search))} fw={600}>
          {t('login.register')}
        </Anchor>
      </Text>
    </Stack>
  );
}
