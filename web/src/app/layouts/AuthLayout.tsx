/**
 * Public pages: a centred card under the logo, which links to the marketing site (SPEC.md section 2).
 * Everything sits in a landmark (issue 20): the logo in the banner, the card in main, the copyright and
 * language switch in the content info; the cookie notice is a region of its own.
 */
import { Anchor, Box, Center, Group, Paper, Stack, Text } from '@mantine/core';
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router-dom';
import { CookieNotice } from '../../components/CookieNotice';
import { LanguageSwitch } from '../../components/LanguageSwitch';
import { Logo } from '../../components/Logo';
import { PageLoader } from '../../components/PageLoader';
import { config } from '../../config';

export default function AuthLayout() {
  const { t } = useTranslation();
  return (
    <Box
      mih="100vh"
      style={{
        background:
          'radial-gradient(1200px 600px at 50% -10%, var(--mantine-color-brand-1), transparent 70%), var(--mantine-color-gray-0)',
      }}
    >
      <CookieNotice />
      <Center mih="100vh" px="md" py={48}>
        <Stack w="100%" maw={440} gap="lg" align="stretch">
          <Center component="header">
            <Anchor href={config.marketingUrl} aria-label={t('app.homeLink')} underline="never">
              <Logo size={36} />
            </Anchor>
          </Center>
          <Paper component="main" withBorder shadow="md" radius="lg" p={{ base: 'lg', sm: 36 }}>
            <Suspense fallback={<PageLoader />}>
              <Outlet />
            </Suspense>
          </Paper>
          <Group component="footer" justify="space-between" px={4}>
            <Text size="xs" c="dimmed">
              © {new Date().getFullYear()} {t('app.name')} · {t('app.tagline')}
            </Text>
            <LanguageSwitch />
          </Group>
        </Stack>
      </Center>
    </Box>
  );
}
