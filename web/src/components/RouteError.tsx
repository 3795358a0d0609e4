/**
 * The app's own error page, React Router's `errorElement` (web/src/routes/routes.tsx): a screen that
 * throws while rendering shows this instead of the router's raw developer page. It sits below the
 * layouts, so the top bar and the project navigation stay usable, and offers a way back (the dashboard,
 * or sign-in on the auth pages) and a reload. Outside any layout (`bare`) it stands on its own.
 */
import { Button, Container, Group } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useRouteError } from 'react-router-dom';
import { StateCard } from './StateCard';

export function RouteError({ area }: { area: 'profile' | 'auth' | 'bare' }) {
  const { t } = useTranslation();
  const error = useRouteError();
  // The one trace left for a developer (and the browser tests): the router swallows what it caught.
  useEffect(() => {
    console.error('screen failed:', error);
  }, [error]);
  const card = (
    <StateCard
      testId="app-error"
      icon={<IconAlertTriangle size={30} />}
      title={t('appError.title')}
      text={t('appError.body')}
      actions={
        <Group justify="center" gap="sm">
          <Button component={Link} to={area === 'auth' ? '/login' : '/profile'}>
            {area === 'auth' ? t('appError.signIn') : t('appError.back')}
          </Button>
          <Button variant="default" onClick={() => window.location.reload()}>
            {t('appError.reload')}
          </Button>
        </Group>
      }
    />
  );
  return area === 'bare' ? (
    <Container size="sm" py="xl" component="main">
      {card}
    </Container>
  ) : (
    card
  );
}
