/**
 * Profile → Browser extension: the member's connected browsers (browser, connected, last used, expires),
 * each revocable after a confirmation; with none, how to connect one. Revoking ends the connection at once:
 * the extension's next call is refused and it asks to connect again.
 */
import { Badge, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorCodeOf } from '../api';
import { RowList, RowListItem } from '../components/RowList';
import { Section } from '../components/Section';
import { toastError, toastSuccess } from '../components/toast';
import { displayLocale, errorText } from '../i18n';
import { type ExtensionConnection, revokeExtension } from './data';

const day = (iso: string) => new Date(iso).toLocaleDateString(displayLocale(), { dateStyle: 'medium' });

export function ExtensionConnections({ connections }: { connections: ExtensionConnection[] }) {
  const { t } = useTranslation();
  const [asked, setAsked] = useState<ExtensionConnection | null>(null);
  const [busy, setBusy] = useState(false);

  async function revoke(connection: ExtensionConnection) {
    setBusy(true);
    try {
      await revokeExtension(connection.id);
      toastSuccess(t('extension.list.revoked', { browser: connection.browser }));
      setAsked(null);
    } catch (error) {
      toastError(errorText(errorCodeOf(error)));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Section title={t('extension.list.sectionTitle')} labelId="extension-list">
      <RowList testId="extension-list" empty={connections.length === 0 && t('extension.list.none')}>
        {connections.map((c) => {
          const expired = Date.parse(c.expires) <= Date.now();
          return (
            <RowListItem key={c.id} testId={`extension-${c.id}`}>
              <Stack gap={4} style={{ minWidth: 0, flex: '1 1 260px' }}>
                <Group gap="xs" wrap="wrap">
                  <Text size="sm" fw={600}>
                    {c.browser}
                  </Text>
                  {expired && <Badge color="red">{t('extension.list.expired')}</Badge>}
                </Group>
                <Text size="xs" c="dimmed">
                  {t('extension.list.dates', {
                    created: day(c.created),
                    used: c.lastUsed ? day(c.lastUsed) : t('extension.list.never'),
                    expires: day(c.expires),
                  })}
                </Text>
              </Stack>
              <Button
                variant="subtle"
                color="red"
                size="xs"
                aria-label={t('extension.list.revokeLabel', { browser: c.browser })}
                onClick={() => setAsked(c)}
              >
                {t('extension.list.revoke')}
              </Button>
            </RowListItem>
          );
        })}
      </RowList>
      {connections.length === 0 && <Text size="sm">{t('extension.list.howTo')}</Text>}
      <Modal
        opened={asked !== null}
        onClose={() => !busy && setAsked(null)}
        title={
          <Text fw={650} size="lg">
            {t('extension.list.confirmTitle')}
          </Text>
        }
        centered
        radius="lg"
        closeButtonProps={{ 'aria-label': t('deleteModal.close') }}
      >
        <Stack gap="sm" data-testid="extension-revoke">
          <Text size="sm">{t('extension.list.confirmText', { browser: asked?.browser ?? '' })}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setAsked(null)} disabled={busy}>
              {t('extension.list.keep')}
            </Button>
            <Button color="red" loading={busy} onClick={() => asked && void revoke(asked)} data-autofocus>
              {t('extension.list.confirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Section>
  );
}
