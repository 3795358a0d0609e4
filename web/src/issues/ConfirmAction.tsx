/**
 * A destructive action behind a small confirmation dialog (deleting a comment or a label): the dialog
 * names what goes, the confirm button says what it does, and a refusal keeps the dialog open with the
 * catalogue's message.
 */
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ErrorCode } from '#contracts/errors';
import { errorCodeOf } from '../api';
import { ErrorAlert } from '../components/ErrorAlert';
import { errorText } from '../i18n';

export function ConfirmAction({
  trigger,
  title,
  body,
  confirm,
  onConfirm,
}: {
  /** The button that opens the dialog, given its open handler. */
  trigger: (open: () => void) => ReactNode;
  title: string;
  body: string;
  confirm: string;
  onConfirm: () => Promise<void>;
}) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const [busy, setBusy] = useState(false);
  const [code, setCode] = useState<ErrorCode | null>(null);
  const close = () => {
    if (busy) return;
    setOpened(false);
    setCode(null);
  };
  async function run() {
    setBusy(true);
    setCode(null);
    try {
      await onConfirm();
      setOpened(false);
    } catch (error) {
      setCode(errorCodeOf(error));
    } finally {
      setBusy(false);
    }
  }
  return (
    <>
      {trigger(() => setOpened(true))}
      <Modal
        opened={opened}
        onClose={close}
        title={title}
        closeButtonProps={{ 'aria-label': t('deleteModal.close') }}
      >
        <Stack gap="md">
          <Text size="sm">{body}</Text>
          {code && <ErrorAlert>{errorText(code)}</ErrorAlert>}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close} disabled={busy}>
              {t('deleteModal.cancel')}
            </Button>
            <Button color="red" loading={busy} onClick={() => void run()}>
              {confirm}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
