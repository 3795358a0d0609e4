/**
 * Cookie notice bar (SPEC.md section 2): shown until accepted; acceptance is stored locally.
 *
 * A bar in the page's flow at the top of each layout, never an overlay: a floating bar covered the main
 * button of the auth pages ('Create account') on desktop and phones until it was accepted
 * (docs/decisions-web.md "Cookie notice").
 */
import { Anchor, Button, Group, Paper, Text } from '@mantine/core';
import { useLocalStorage } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { config } from '../config';

/** `inset`: inside a padded content area (the profile area's main column) rather than across the page. */
export function CookieNotice({ inset = false }: { inset?: boolean }) {
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
      radius={inset ? 'md' : 0}
      mb={inset ? 'md' : 0}
      px="md"
      py="xs"
      withBorder
    >
      <Group justify="center" wrap="nowrap" gap="md" maw={960} mx="auto">
        <Text size="sm">
          {t('cookie.text')}{' '}
          <Anchor href={config.privacyUrl} target="_blank" rel="noopener" size="sm" fw={600}>
            {t('cookie.privacy')}
          </Anchor>
        </Text>
        <Button size="xs" onClick={() => setAccepted(true)} style={{ flexShrink: 0 }}>
          {t('cookie.accept')}
        </Button>
      </Group>
    </Paper>
  );
}
