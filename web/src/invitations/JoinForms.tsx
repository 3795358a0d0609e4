/**
 * Signed out: create an account with the invited address (confirmed by the invitation, so no code mail)
 * or sign in with it; either way the invitation is accepted straight after. The address is fixed: only
 * the invited account can accept.
 */
import { SegmentedControl, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ErrorCode } from '#contracts/errors';
import { signIn } from '../accounts/data';
import { LoginForm } from '../accounts/LoginForm';
import { loginErrorCode } from '../accounts/login-model';
import { RegistrationForm } from '../accounts/RegistrationForm';
import { errorCodeOf } from '../api';
import { clearApiCache } from '../api/session';
import { ErrorAlert } from '../components/ErrorAlert';
import { errorText } from '../i18n';

type Choice = 'register' | 'signIn';

export function JoinForms({
  token,
  email,
  onSignedIn,
}: {
  token: string;
  email: string;
  /** The session exists: accept. */
  onSignedIn: () => Promise<void>;
}) {
  const { t } = useTranslation();
  const [choice, setChoice] = useState<Choice>('register');
  const [errorCode, setErrorCode] = useState<ErrorCode | null>(null);
  const [retryAt, setRetryAt] = useState<string | undefined>();

  return (
    <Stack gap="md">
      <SegmentedControl
        fullWidth
        // Long labels (German, phones) wrap instead of being cut off.
        styles={{ label: { whiteSpace: 'normal' } }}
        aria-label={t('invitation.accountChoice')}
        value={choice}
        onChange={(value) => {
          setChoice(value as Choice);
          setErrorCode(null);
        }}
        data={[
          { value: 'register', label: t('invitation.newAccount') },
          { value: 'signIn', label: t('invitation.haveAccount') },
        ]}
      />
      {errorCode && (
        <ErrorAlert>
          {errorText(errorCode, choice === 'register' ? 'registration' : 'login', retryAt)}
        </ErrorAlert>
      )}
      {choice === 'register' ? (
        <>
          <Text size="sm" c="dimmed">
            {t('invitation.registerHint')}
          </Text>
          <RegistrationForm
            email={email}
            invitation={token}
            submitLabel={t('invitation.registerSubmit')}
            onError={setErrorCode}
            onRegistered={async (username, values) => {
              // Created confirmed (the invitation proved the address): sign in with what was just typed.
              try {
                await signIn({ _username: username, _password: values._password });
              } catch (error) {
                // The account exists now: signing in is the way on, not a second registration.
                setChoice('signIn');
                setErrorCode(loginErrorCode(errorCodeOf(error)));
                return;
              }
              await clearApiCache();
              await onSignedIn();
            }}
          />
        </>
      ) : (
        <LoginForm
          email={email}
          submitLabel={t('invitation.signInSubmit')}
          onError={(code, until) => {
            setErrorCode(code);
            setRetryAt(until);
          }}
          onSignedIn={onSignedIn}
        />
      )}
    </Stack>
  );
}
