/**
 * The connect page's card (contracts/extension.ts): which browser asks, who it will act as, what it will and
 * will not be able to do, and Approve / Cancel. The page hands the outcome to the extension through the
 * address it goes to; nothing here holds or shows a token.
 */
import { Alert, Button, Group, List, Stack, Text, Title } from '@mantine/core';
import { IconCheck, IconPuzzle, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorCodeOf } from '../api';
import { ErrorAlert } from '../components/ErrorAlert';
import { errorText } from '../i18n';

export function ExtensionApproval({
  browser,
  member,
  onApprove,
  onCancel,
}: {
  browser: string | undefined;
  member: { name: string; email: string };
  onApprove: () => Promise<void>;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  async function approve() {
    setBusy(true);
    setFailure(null);
    try {
      await onApprove();
    } catch (error) {
      setFailure(errorText(errorCodeOf(error)));
      setBusy(false);
    }
  }

  return (
    <Stack gap="md" data-testid="extension-approval">
      <Group gap="sm" wrap="nowrap">
        <IconPuzzle size={28} aria-hidden />
        <Title order={1} size="h3">
          {t('extension.connect.title')}
        </Title>
      </Group>
      <Text size="sm">
        {t('extension.connect.browser')}: <strong>{browser ?? t('extension.connect.unknownBrowser')}</strong>
      </Text>
      <Text size="sm">{t('extension.connect.lead', member)}</Text>
      <Stack gap={4}>
        <Text size="sm" fw={600} id="extension-may">
          {t('extension.connect.mayTitle')}
        </Text>
        <List
          size="sm"
          spacing={4}
          aria-labelledby="extension-may"
          icon={<IconCheck size={16} aria-hidden />}
        >
          <List.Item>{t('extension.connect.may1')}</List.Item>
          <List.Item>{t('extension.connect.may2')}</List.Item>
        </List>
      </Stack>
      <Stack gap={4}>
        <Text size="sm" fw={600} id="extension-may-not">
          {t('extension.connect.mayNotTitle')}
        </Text>
        <List
          size="sm"
          spacing={4}
          aria-labelledby="extension-may-not"
          icon={<IconX size={16} aria-hidden />}
        >
          <List.Item>{t('extension.connect.mayNot1')}</List.Item>
          <List.Item>{t('extension.connect.mayNot2')}</List.Item>
        </List>
      </Stack>
      <Alert variant="light" color="gray" p="sm">
        <Text size="sm">{t('extension.connect.lifetime')}</Text>
      </Alert>
      {failure && <ErrorAlert>{failure}</ErrorAlert>}
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onCancel} disabled={busy}>
          {t('extension.connect.cancel')}
        </Button>
        <Button loading={busy} onClick={() => void approve()}>
          {t('extension.connect.approve')}
        </Button>
      </Group>
    </Stack>
  );
}
