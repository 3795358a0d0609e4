/** Cookie notice bar (SPEC.md section 2): shown until accepted; acceptance is stored locally. */
import { Anchor, Button, Group, Paper, Text } from '@mantine/core';
import { useLocalStorage } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { config } from '../config';

export function CookieNotice() {
  const { t } = useTranslation();
  const [accepted, setAccepted] = useLocalStorage({
    key: 'snag.cookies.accepted',
    defaultValue: false,
    getInitialValueInEffect: false,
  });
  if (accepted) return null;
  return (
    <Paper
      role="region"
      aria-label={t('cookie.privacy')}
      shadow="lg"
      radius="lg"
      p="sm"
      pl="lg"
      withBorder
      style={{
        position: 'fixed',
        left: '50%',
        bottom: 16,
        transform: 'translateX(-50%)',
        width: 'min(720px, calc(100% - 32px))',
        zIndex: 300,
      }}
    >
      <Group justify="space-between" wrap="nowrap" gap="md">
        <Text size="sm">
          {t('cookie.text')}{' '}
          <Anchor href={config.privacyUrl} target="_blank" rel="noopener" size="sm" fw={600}>
            {t('cookie.privacy')}
          </Anchor>
        </Text>
        <Button size="sm" onClick={() => setAccepted(true)} style={{ flexShrink: 0 }}>
          {t('cookie.accept')}
        </Button>
      </Group>
    </Paper>
  );
}
