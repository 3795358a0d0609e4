import { Center, Loader } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Shown while a lazily loaded screen or the session check is on its way. */
export function PageLoader({ fullHeight = false }: { fullHeight?: boolean }) {
  const { t } = useTranslation();
  return (
    <Center h={fullHeight ? '100vh' : 240} role="status" aria-label={t('app.loading')}>
      <Loader size="md" />
    </Center>
  );
}
