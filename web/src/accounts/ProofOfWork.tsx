/**
 * Registration's proof of work (SPEC.md section 5): the altcha widget under its label. The widget is a
 * chunk of its own, fetched while the user reads the form; a skeleton holds its place meanwhile.
 */
import { Input, Skeleton } from '@mantine/core';
import { lazy, type Ref, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import type { AltchaHandle } from './AltchaField';

const AltchaField = lazy(() => import('./AltchaField'));

export function ProofOfWork({
  altcha,
  onPayload,
}: {
  altcha: Ref<AltchaHandle>;
  onPayload: (payload: string | null) => void;
}) {
  const { t, i18n } = useTranslation();
  return (
    <Input.Wrapper
      label={t('registration.proofLabel')}
      description={t('registration.proofHint')}
      id="registration-proof"
    >
      <div style={{ marginTop: 6 }}>
        <Suspense fallback={<Skeleton height={68} radius="md" />}>
          <AltchaField ref={altcha} language={i18n.language} onPayload={onPayload} />
        </Suspense>
      </div>
    </Input.Wrapper>
  );
}
