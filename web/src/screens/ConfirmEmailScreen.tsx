/**
 * /confirm_email, the target of the emailed link (SPEC.md section 2): a malformed link goes straight to
 * /login?code=1; otherwise POST /registration/client/confirm, then /login?username=… on success (with the
 * page this browser remembered at registration as `next`, accounts/return-after-confirm.ts) or
 * /login?code=1 on failure. A loading view shows meanwhile.
 */
import { Loader, Stack, Text, Title } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { confirmEmail } from '../accounts/data';
import { confirmEmailRequest, loginWith } from '../accounts/login-model';
import { takeReturn } from '../accounts/return-after-confirm';
import { useDocumentTitle } from '../hooks/title';

export default function ConfirmEmailScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { search } = useLocation();
  useDocumentTitle(t('screens.confirmEmail'));
  // The code is single-use: confirm once even if the effect runs twice (StrictMode in development).
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const request = confirmEmailRequest(search);
    if (!request) {
      navigate(loginWith.invalidCode, { replace: true });
      return;
    }
    confirmEmail(request).then(
      () =>
        navigate(loginWith.registered(request._username, takeReturn(request._username)), { replace: true }),
      () => navigate(loginWith.invalidCode, { replace: true }),
    );
  }, [search, navigate]);

  return (
    <Stack align="center" ta="center" gap="md" py="lg" role="status" aria-live="polite">
      <Loader size="lg" />
      <Title order={1} size="h3">
        {t('confirmEmail.title')}
      </Title>
      <Text c="dimmed" size="sm">
        {t('confirmEmail.body')}
      </Text>
    </Stack>
  );
}
