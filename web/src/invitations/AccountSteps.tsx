/** Signed in: accept with the invited account, or learn that another account is signed in and sign out. */
import { Alert, Button, Stack, Text } from '@mantine/core';
import { IconUserExclamation } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

export function AcceptStep({ email, onAccept }: { email: string; onAccept: () => Promise<void> }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  return (
    <Stack gap="md">
      <Text size="sm">{t('invitation.signedInAs', { email })}</Text>
      <Button
        size="md"
        fullWidth
        loading={busy}
        onClick={async () => {
          setBusy(true);
          await onAccept();
          setBusy(false);
        }}
      >
        {t('invitation.accept')}
      </Button>
    </Stack>
  );
}

export function WrongAccountStep({
  email,
  current,
  onSignOut,
}: {
  email: string;
  current: string;
  onSignOut: () => Promise<void>;
}) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  return (
    <Stack gap="md">
      <Alert
        color="orange"
        variant="light"
        icon={<IconUserExclamation size={18} />}
        title={t('invitation.wrongAccountTitle')}
        role="alert"
      >
        {t('invitation.wrongAccount', { email, current })}
      </Alert>
      <Button
        size="md"
        fullWidth
        variant="default"
        loading={busy}
        onClick={async () => {
          setBusy(true);
          await onSignOut();
          setBusy(false);
        }}
      >
        {t('invitation.signOut')}
      </Button>
    </Stack>
  );
}
