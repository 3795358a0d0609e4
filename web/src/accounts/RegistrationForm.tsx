/**
 * The registration form (SPEC.md sections 2 and 5): names, work email, password and the proof of work,
 * shared by /registration and the invitation page. Submit stays disabled until the altcha widget has
 * solved its challenge. It registers and hands the next step to its screen; failures go to the screen.
 */
import { Button, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ErrorCode } from '#contracts/errors';
import { limits } from '#contracts/limits';
import { registrationSchema } from '#contracts/schemas';
import { errorCodeOf } from '../api';
import { schemaValidator } from '../forms/validate';
import type { AltchaHandle } from './AltchaField';
import { register } from './data';
import { NameFields } from './NameFields';
import { PasswordField } from './PasswordField';
import { ProofOfWork } from './ProofOfWork';

export type RegistrationValues = {
  firstName: string;
  lastName: string;
  _username: string;
  _password: string;
};

const formSchema = registrationSchema.omit({ altcha: true });

export function RegistrationForm({
  email,
  invitation,
  submitLabel,
  onError,
  onRegistered,
}: {
  /** A fixed address (the invited one): shown read-only. */
  email?: string;
  /** The invitation's token: the server creates the invited address's account confirmed (no code mail). */
  invitation?: string;
  submitLabel?: string;
  /** A failed registration (catalogue code), or null when a new attempt starts. */
  onError: (code: ErrorCode | null) => void;
  /** The account exists: the address the server registered (lowercased) and the values sent. */
  onRegistered: (username: string, values: RegistrationValues) => Promise<void> | void;
}) {
  const { t } = useTranslation();
  const [payload, setPayload] = useState<string | null>(null);
  const altcha = useRef<AltchaHandle>(null);
  const [submitting, setSubmitting] = useState(false);
  const form = useForm<RegistrationValues>({
    initialValues: { firstName: '', lastName: '', _username: email ?? '', _password: '' },
    validate: schemaValidator<RegistrationValues>(formSchema),
    validateInputOnBlur: true,
  });

  async function submit(values: RegistrationValues) {
    if (!payload) return;
    setSubmitting(true);
    onError(null);
    try {
      const { username } = await register({ ...values, altcha: payload, invitation });
      await onRegistered(username ?? values._username.trim().toLowerCase(), values);
    } catch (error) {
      onError(errorCodeOf(error));
      setSubmitting(false);
      // The server accepts a solved challenge once, whatever the outcome: solve a new one for the retry.
      altcha.current?.renew();
    }
  }

  return (
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
          readOnly={email !== undefined}
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
          {submitLabel ?? t('registration.submit')}
        </Button>
        {!payload && !submitting && (
          <Text id="registration-proof-waiting" size="xs" c="dimmed" ta="center" mt={-8}>
            {t('registration.proofWaiting')}
          </Text>
        )}
      </Stack>
    </form>
  );
}
