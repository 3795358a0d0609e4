/**
 * The return from the card provider's checkout (SPEC.md section 2): `?success` after paying, `?canceled`
 * after its Cancel (the `cancel_url` billing/service.ts builds). Either shows its message once, refreshes
 * plan and history, and drops the parameter from the address.
 */
import { Alert } from '@mantine/core';
import { IconCircleCheck, IconInfoCircle } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { mutate } from 'swr';
import { endpointPath } from '../api/endpoints';

const profilePath = endpointPath('profile.get');
const paymentsPath = endpointPath('billing.payments');
const returns = ['success', 'canceled'] as const;
type Return = (typeof returns)[number];

const refresh = () => {
  void mutate(profilePath);
  void mutate(paymentsPath);
};

export function ReturnNotice() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const [shown, setShown] = useState<Return | null>(null);

  useEffect(() => {
    const found = returns.find((r) => params.has(r));
    if (!found) return;
    setShown(found);
    refresh();
    const next = new URLSearchParams(params);
    for (const r of returns) next.delete(r);
    setParams(next, { replace: true });
  }, [params, setParams]);

  // With Stripe itself the webhook may land a moment after the return: look again for a little while.
  useEffect(() => {
    if (shown !== 'success') return;
    let left = 10;
    const timer = setInterval(() => {
      refresh();
      if (--left === 0) clearInterval(timer);
    }, 2000);
    return () => clearInterval(timer);
  }, [shown]);

  if (shown === 'success')
    return (
      <Alert
        color="teal"
        icon={<IconCircleCheck />}
        title={t('billing.successTitle')}
        withCloseButton
        onClose={() => setShown(null)}
        data-testid="payment-success"
      >
        {t('billing.success')}
      </Alert>
    );
  if (shown === 'canceled')
    return (
      <Alert
        color="gray"
        icon={<IconInfoCircle />}
        title={t('billing.canceledTitle')}
        withCloseButton
        onClose={() => setShown(null)}
        data-testid="payment-canceled"
      >
        {t('billing.canceled')}
      </Alert>
    );
  return null;
}
