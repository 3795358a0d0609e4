/** /login (SPEC.md section 2): email and password sign-in, notices from the query, social button slot. */
import { Alert, Anchor, Button, Divider, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertCircle } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import type { ErrorCode } from '#contracts/errors';
import { limits } from '#contracts/limits';
import { loginSchema } from '#contracts/schemas';
import { GoogleButton } from '../accounts/GoogleButton';
import { LoginNoticeAlert, useLoginNotice } from '../accounts/LoginNotice';
import { PasswordField } from '../accounts/PasswordField';
import { api, errorCodeOf } from '../api';
import { clearApiCache } from '../api/session';
import { loginErrorCode, paths } from '../app/paths';
import { config } from '../config';
import { schemaValidator } from '../forms/validate';
import { useDocumentTitle } from '../hooks/title';
import { errorText } from '../i18n';

type LoginValues = { _username: string; _password: string };

export default function LoginScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  useDocumentTitle(t('login.submit'));
  const notice = useLoginNotice();

  const [errorCode, setErrorCode] = useState<ErrorCode | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const form = useForm<LoginValues>({
    initialValues: { _username: '', _password: '' },
    validate: schemaValidator<LoginValues>(loginSchema),
    validateInputOnBlur: true,
  });

  async function submit(values: LoginValues) {
    setSubmitting(true);
    setErrorCode(null);
    try {
      await api.call('auth.login', { body: values });
      await clearApiCache();
      navigate(paths.profile, { replace: true });
    } catch (error) {
      setErrorCode(loginErrorCode(errorCodeOf(error)));
      setSubmitting(false);
    }
  }

  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1} size="h2">
          {t('login.title')}
        </Title>
        <Text c="dimmed" size="sm">
          {t('login.subtitle')}
        </Text>
      </Stack>

      {notice && <LoginNoticeAlert notice={notice} />}
      {errorCode && (
        <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
          {errorText(errorCode, 'login')}
        </Alert>
      )}

      <form onSubmit={form.onSubmit(submit)} noValidate>
        <Stack gap="md">
          <TextInput
            label={t('login.email')}
            placeholder={t('login.emailPlaceholder')}
            type="email"
            autoComplete="username"
            maxLength={limits.loginInputMax}
            required
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
            {t('login.submit')}
          </Button>
        </Stack>
      </form>

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
        <Anchor component={Link} to={paths.registration} fw={600}>
          {t('login.register')}
        </Anchor>
      </Text>
    </Stack>
  );
}
