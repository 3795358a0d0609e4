/**
 * Body for screens that later issues build: the screen's translated title inside the real layout, so
 * navigation, guards and redirects can be exercised today.
 */
import { Button, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconHammer } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useDocumentTitle } from '../hooks/title';
import type { Catalogue } from '../i18n/en';

export type ScreenKey = keyof Catalogue['screens'];
export type Subtitle =
  | { group: 'integrations'; name: keyof Catalogue['integrations'] }
  | { group: 'configuration'; name: keyof Catalogue['configuration'] };

export default function ComingSoon({
  screen,
  sub,
  back,
}: {
  screen: ScreenKey;
  sub?: Subtitle;
  /** Where "back" leads: login on auth pages, the dashboard in the profile area. */
  back: 'login' | 'profile';
}) {
  const { t } = useTranslation();
  const title = t(`screens.${screen}`);
  const subtitle = sub ? t(`${sub.group}.${sub.name}` as `integrations.email`) : null;
  useDocumentTitle(subtitle ? `${title} · ${subtitle}` : title);
  return (
    <Stack align="center" ta="center" gap="sm" py={back === 'profile' ? 64 : 8}>
      <ThemeIcon size={56} radius="xl" variant="light">
        <IconHammer size={28} stroke={1.6} />
      </ThemeIcon>
      <Title order={1} size="h2">
        {title}
      </Title>
      {subtitle && (
        <Text c="dimmed" fw={600}>
          {subtitle}
        </Text>
      )}
      <Text c="dimmed" maw={420}>
        <strong>{t('comingSoon.title')}.</strong> {t('comingSoon.body')}
      </Text>
      {screen !== 'dashboard' && (
        <Button component={Link} to={back === 'login' ? '/login' : '/profile'} variant="light" mt="sm">
          {back === 'login' ? t('login.submit') : t('comingSoon.back')}
        </Button>
      )}
    </Stack>
  );
}
