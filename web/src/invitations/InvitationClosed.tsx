/**
 * A link that cannot be accepted says which it is (used, withdrawn, expired, unknown) and offers the way
 * on: the dashboard for a session, sign-in otherwise.
 */
import { Button, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCircleCheck, IconClockX, IconLinkOff, IconMailOff } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { errorText } from '../i18n';
import { paths } from '../paths';
import { type ClosedReason, closedReasonCodes } from './model';

const icons = { used: IconCircleCheck, revoked: IconMailOff, expired: IconClockX, unknown: IconLinkOff };

export function InvitationClosed({ reason, signedIn }: { reason: ClosedReason; signedIn: boolean }) {
  const { t } = useTranslation();
  const Icon = icons[reason];
  return (
    <Stack align="center" ta="center" gap="sm" data-testid={`invitation-${reason}`}>
      <ThemeIcon size={56} radius="xl" variant="light" color={reason === 'used' ? 'brand' : 'orange'}>
        <Icon size={30} aria-hidden />
      </ThemeIcon>
      <Title order={1} size="h3">
        {errorText(closedReasonCodes[reason])}
      </Title>
      <Text c="dimmed" size="sm">
        {t(`invitation.closed.${reason}`)}
      </Text>
      <Button component={Link} to={signedIn ? paths.profile : paths.login} mt="sm">
        {signedIn ? t('invitation.toProjects') : t('invitation.toLogin')}
      </Button>
    </Stack>
  );
}
