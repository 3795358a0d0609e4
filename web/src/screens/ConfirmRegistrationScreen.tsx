/**
 * /confirm_registration (SPEC.md section 2): the confirmation mail is on its way to the address in
 * ?username=; a link sends it again (POST /restore/code) with its success or failure message. "Back to
 * sign in" keeps a safe `next` (the page the new user started from).
 */
import { Anchor, Button, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconMailForward } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import type { ErrorCode } from '#contracts/errors';
import { AuthHeading } from '../accounts/AuthHeading';
import { resendConfirmation } from '../accounts/data';
import { errorCodeOf } from '../api';
import { ErrorAlert, SuccessAlert } from '../components/ErrorAlert';
import { useDocumentTitle } from '../hooks/title';
import { errorText } from '../i18n';
import { paths, safeNext } from '../paths';

type ResendState = { status: 'idle' | 'sending' | 'sent' } | { status: 'failed'; code: ErrorCode };

export default function ConfirmRegistrationScreen() {
  const { t } = useTranslation();
  useDocumentTitle(t('screens.confirmRegistration'));
  const [params] = useSearchParams();
  const username = params.get('username')?.trim() ?? '';
  const next = safeNext(`?${params}`);
  const [resend, setResend] = useState<ResendState>({ status: 'idle' });

  async function sendAgain() {
    setResend({ status: 'sending' });
    try {
      await resendConfirmation(username);
      setResend({ status: 'sent' });
    } catch (error) {
      setResend({ status: 'failed', code: errorCodeOf(error) });
    }
  }

  return (
    <Stack gap="lg">
      <ThemeIcon size={56} radius="xl" variant="light" aria-hidden>
        <IconMailForward size={28} stroke={1.6} />
      </ThemeIcon>
      <AuthHeading title={t('confirmRegistration.title')} />

      {username ? (
        <Stack gap={4}>
          <Text size="sm" c="dimmed">
            {t('confirmRegistration.sentTo')}
          </Text>
          <Text fw={650} data-testid="confirm-address" style={{ overflowWrap: 'anywhere' }}>
            {username}
          </Text>
        </Stack>
      ) : (
        <Text size="sm">{t('confirmRegistration.sentNoAddress')}</Text>
      )}
      <Text size="sm">{t('confirmRegistration.next')}</Text>

      {resend.status === 'sent' && <SuccessAlert>{t('confirmRegistration.resent')}</SuccessAlert>}
      {resend.status === 'failed' && <ErrorAlert>{errorText(resend.code, 'resendConfirmation')}</ErrorAlert>}

      {username && (
        <Text size="sm" c="dimmed">
          {t('confirmRegistration.notReceived')}{' '}
          <Anchor
            component="button"
            type="button"
            size="sm"
            fw={600}
            onClick={() => void sendAgain()}
            disabled={resend.status === 'sending'}
            style={{ verticalAlign: 'baseline' }}
          >
            {t('confirmRegistration.resend')}
          </Anchor>
          .
        </Text>
      )}

      <Button
        component={Link}
        to={next ? paths.loginThen(next) : paths.login}
        variant="light"
        fullWidth
        size="md"
      >
        {t('confirmRegistration.back')}
      </Button>
    </Stack>
  );
}
