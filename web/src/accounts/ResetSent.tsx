/** After a reset request (SPEC.md section 2): where the mail went, what to do next, and back to login. */
import { Button, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconMailForward } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { paths } from '../paths';
import { AuthHeading } from './AuthHeading';

export function ResetSent({ sentTo }: { sentTo: string }) {
  const { t } = useTranslation();
  return (
    <Stack gap="lg" role="status">
      <ThemeIcon size={56} radius="xl" variant="light" aria-hidden>
        <IconMailForward size={28} stroke={1.6} />
      </ThemeIcon>
      <AuthHeading title={t('reset.sentTitle')} />
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {t('reset.sent', { email: sentTo })}
      </Text>
      <Text size="sm" c="dimmed">
        {t('reset.sentHint')}
      </Text>
      <Button component={Link} to={paths.login} variant="light" fullWidth size="md">
        {t('reset.back')}
      </Button>
    </Stack>
  );
}
