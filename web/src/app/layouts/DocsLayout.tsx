/**
 * Public documentation pages (issue 25: /docs/api): the page's full width for the reference, under a top
 * bar with the logo, the way back to the dashboard (sign-in leads there without a session) and the language
 * switch. Open with or without a session: nothing here reads the account. Landmarks as in AuthLayout
 * (issue 20): the bar in the banner, the page in main, the copyright in the content info.
 */
import { Anchor, Box, Button, Container, Group, Text } from '@mantine/core';
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet } from 'react-router-dom';
import { CookieNotice } from '../../components/CookieNotice';
import { LanguageSwitch } from '../../components/LanguageSwitch';
import { Logo } from '../../components/Logo';
import { PageLoader } from '../../components/PageLoader';
import { config } from '../../config';
import { paths } from '../../paths';

export default function DocsLayout() {
  const { t } = useTranslation();
  return (
    <Box mih="100vh" bg="gray.0">
      <Box component="header" bg="white" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
        <Group h={64} px="md" justify="space-between" wrap="nowrap" maw={1440} mx="auto">
          <Anchor href={config.marketingUrl} aria-label={t('app.homeLink')} underline="never" display="flex">
            <Logo size={30} />
          </Anchor>
          <Group gap="xs" wrap="nowrap">
            <Button component={Link} to={paths.profile} variant="subtle" color="gray" size="sm">
              {t('nav.dashboard')}
            </Button>
            <LanguageSwitch />
          </Group>
        </Group>
      </Box>
      <CookieNotice />
      <Container component="main" size={1440} px={{ base: 'sm', sm: 'xl' }} py="xl">
        <Suspense fallback={<PageLoader />}>
          <Outlet />
        </Suspense>
      </Container>
      <Box component="footer" px="md" pb="lg">
        <Text size="xs" c="dimmed" ta="center">
          © {new Date().getFullYear()} {t('app.name')} · {t('app.tagline')}
        </Text>
      </Box>
    </Box>
  );
}
