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
import { reloadPlan } from './data';

const returns = ['success', 'canceled'] as const;
type Return = (typeof returns)[number];

/** How each return's message looks (its texts are `billing.<return>` and `billing.<return>Title`). */
const looks = {
  success: { color: 'teal', Icon: IconCircleCheck },
  canceled: { color: 'gray', Icon: IconInfoCircle },
} as const;

export function ReturnNotice() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const [shown, setShown] = useState<Return | null>(null);

  useEffect(() => {
    const found = returns.find((r) => params.has(r));
    if (!found) return;
    setShown(found);
    reloadPlan();
    const next = new URLSearchParams(params);
    for (const r of returns) next.delete(r);
    setParams(next, { replace: true });
  }, [params, setParams]);

  // With Stripe itself the webhook may land a moment after the return: look again for a little while.
  useEffect(() => {
    if (shown !== 'success') return;
    let left = 10;
    const timer = setInterval(() => {
      reloadPlan();
      if (--left === 0) clearInterval(timer);
    }, 2000);
    return () => clearInterval(timer);
  }, [shown]);

  if (!shown) return null;
  const { color, Icon } = looks[shown];
  return (
    <Alert
      color={color}
      icon={<Icon />}
      title={t(`billing.${shown}Title`)}
      withCloseButton
      onClose={() => setShown(null)}
      data-testid={`payment-${shown}`}
    >
      {t(`billing.${shown}`)}
    </Alert>
  );
}
