/**
 * /reset_verification, the target of the reset mail (SPEC.md section 2): reads ?code and sets a new
 * password (POST /restore/verification). Success goes to /login?reset=1; USER_PASSWORD_LENGTH and
 * RESTORE_NOT_POSSIBLE ('Link is invalid or expired') show their messages.
 */
import { Anchor, Button, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import type { ErrorCode } from '#contracts/errors';
import { resetVerificationSchema } from '#contracts/schemas';
import { AuthHeading } from '../accounts/AuthHeading';
import { resetPassword } from '../accounts/data';
import { loginWith } from '../accounts/login-model';
import { PasswordField } from '../accounts/PasswordField';
import { errorCodeOf } from '../api';
import { ErrorAlert } from '../components/ErrorAlert';
import { schemaValidator } from '../forms/validate';
import { useDocumentTitle } from '../hooks/title';
import { errorText } from '../i18n';
import { paths } from '../paths';

type NewPasswordValues = { password: string };

const formSchema = resetVerificationSchema.pick({ password: true });

export default function ResetVerificationScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  useDocumentTitle(t('screens.resetVerification'));
  const [params] = useSearchParams();
  const code = params.get('code') ?? '';
  // Without a code the link cannot work: say so at once instead of after a round trip.
  const [errorCode, setErrorCode] = useState<ErrorCode | null>(code ? null : 'RESTORE_NOT_POSSIBLE');
  const [submitting, setSubmitting] = useState(false);
  const form = useForm<NewPasswordValues>({
    initialValues: { password: '' },
    validate: schemaValidator<NewPasswordValues>(formSchema),
    validateInputOnBlur: true,
  });

  async function submit(values: NewPasswordValues) {
    setSubmitting(true);
    setErrorCode(null);
    try {
      await resetPassword({ code, password: values.password });
      navigate(loginWith.reset, { replace: true });
    } catch (error) {
      setErrorCode(errorCodeOf(error));
      setSubmitting(false);
    }
  }

  return (
    <Stack gap="lg">
      <AuthHeading title={t('resetVerification.title')} subtitle={t('resetVerification.subtitle')} />
      {errorCode && (
        <ErrorAlert>
          {errorText(errorCode)}
          {errorCode === 'RESTORE_NOT_POSSIBLE' && (
            <Anchor
              component={Link}
              to={paths.reset}
              size="sm"
              fw={600}
              c="red.8"
              underline="always"
              display="block"
              mt={4}
            >
              {t('resetVerification.requestNew')}
            </Anchor>
          )}
        </ErrorAlert>
      )}
      <form onSubmit={form.onSubmit(submit)} noValidate>
        <Stack gap="md">
          <PasswordField
            label={t('resetVerification.password')}
            description={t('resetVerification.passwordHint')}
            autoComplete="new-password"
            required
            disabled={!code}
            key={form.key('password')}
            {...form.getInputProps('password')}
          />
          <Button type="submit" size="md" fullWidth loading={submitting} disabled={!code}>
            {t('resetVerification.submit')}
          </Button>
        </Stack>
      </form>
      <Text size="sm" ta="center">
        <Anchor component={Link} to={paths.login} fw={600}>
          {t('resetVerification.back')}
        </Anchor>
      </Text>
    </Stack>
  );
}
