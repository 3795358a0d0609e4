/**
 * /connect/extension/done?code&state or ?error=denied&state (contracts/extension.ts): where the connect page
 * ends. The extension reads the code from this address itself; the page only tells the person what
 * happened and that the tab may close. It never shows the code.
 */
import { Stack, Text, ThemeIcon } from '@mantine/core';
import { IconCheck, IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';
import { AuthHeading } from '../accounts/AuthHeading';
import { useDocumentTitle } from '../hooks/title';

export default function ConnectExtensionDoneScreen() {
  const { t } = useTranslation();
  useDocumentTitle(t('screens.connectExtension'));
  const query = new URLSearchParams(useLocation().search);
  const connected = !!query.get('code') && !query.get('error');
  return (
    <Stack
      gap="md"
      align="center"
      ta="center"
      data-testid={connected ? 'extension-connected' : 'extension-denied'}
    >
      <ThemeIcon size={56} radius="xl" variant="light" color={connected ? 'teal' : 'gray'} aria-hidden>
        {connected ? <IconCheck size={32} /> : <IconX size={32} />}
      </ThemeIcon>
      <AuthHeading
        title={connected ? t('extension.connect.doneTitle') : t('extension.connect.deniedTitle')}
      />
      <Text role="status">{connected ? t('extension.connect.done') : t('extension.connect.denied')}</Text>
      {connected && (
        <Text size="sm" c="dimmed">
          {t('extension.connect.doneHint')}
        </Text>
      )}
    </Stack>
  );
}
