/**
 * The email and password sign-in form (SPEC.md section 2), shared by /login and the invitation page. It
 * signs in and hands the next step to its screen; failures go to the screen too, which shows them beside
 * its other messages (Google's, the login notices).
 */
import { Anchor, Button, Group, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { ErrorCode } from '#contracts/errors';
import { limits } from '#contracts/limits';
import { loginSchema } from '#contracts/schemas';
import { ApiError, errorCodeOf } from '../api';
import { clearApiCache } from '../api/session';
import { schemaValidator } from '../forms/validate';
import { paths } from '../paths';
import { signIn } from './data';
import { loginErrorCode } from './login-model';
import { PasswordField } from './PasswordField';

type LoginValues = { _username: string; _password: string };

export function LoginForm({
  email,
  submitLabel,
  onError,
  onSignedIn,
}: {
  /** A fixed address (the invited one): shown read-only, so only the invited account can sign in here. */
  email?: string;
  submitLabel?: string;
  /**
   * A failed sign-in (its login message's code, and when a block lifts), or null when a new attempt
   * starts.
   */
  onError: (code: ErrorCode | null, retryAt?: string) => void;
  /** Called once the session exists (and the cache of the signed-out state is cleared). */
  onSignedIn: () => Promise<void> | void;
}) {
  const { t } = useTranslation();
  const [submitting, setSubmitting] = useState(false);
  const form = useForm<LoginValues>({
    initialValues: { _username: email ?? '', _password: '' },
    validate: schemaValidator<LoginValues>(loginSchema),
    validateInputOnBlur: true,
  });

  async function submit(values: LoginValues) {
    setSubmitting(true);
    onError(null);
    try {
      await signIn(values);
      await clearApiCache();
      await onSignedIn();
    } catch (error) {
      onError(
        loginErrorCode(errorCodeOf(error)),
        error instanceof ApiError ? error.details.retryAt : undefined,
      );
      setSubmitting(false);
    }
  }

  return (
    <form onSubmit={form.onSubmit(submit)} noValidate>
      <Stack gap="md">
        <TextInput
          label={t('login.email')}
          placeholder={t('login.emailPlaceholder')}
          type="email"
          autoComplete="username"
          maxLength={limits.loginInputMax}
          required
          readOnly={email !== undefined}
          key={form.key('_username')}
          {...form.getInputProps('_username')}
        />
        <div>
          <PasswordField
            label={t('login.password')}
            placeholder={t('login.passwordPlaceholder')}
            autoComplete="current-password"
            required
            key={form.key('_password')}
            {...form.getInputProps('_password')}
          />
          <Group justify="flex-end" mt={6}>
            <Anchor component={Link} to={paths.reset} size="sm">
              {t('login.forgot')}
            </Anchor>
          </Group>
        </div>
        <Button type="submit" size="md" fullWidth loading={submitting}>
          {submitLabel ?? t('login.submit')}
        </Button>
      </Stack>
    </form>
  );
}
