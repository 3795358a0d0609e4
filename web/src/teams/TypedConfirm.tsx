/**
 * A danger-zone action behind a modal in which typing the team's name enables the button (issue 22:
 * transfer ownership, leave team). The name, not a fixed word: it names what is at stake.
 */
import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ErrorCode } from '#contracts/errors';
import { errorCodeOf } from '../api';
import { ErrorAlert } from '../components/ErrorAlert';
import { errorText } from '../i18n';

export function TypedConfirm({
  teamName,
  button,
  modalTitle,
  children,
  disabled = false,
  onConfirm,
}: {
  teamName: string;
  button: string;
  modalTitle: string;
  /** What the modal says before the confirmation field. */
  children?: ReactNode;
  disabled?: boolean;
  /** Does it and moves on; a refusal keeps the modal open with the catalogue's message. */
  onConfirm: () => Promise<void>;
}) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);
  const [errorCode, setErrorCode] = useState<ErrorCode | null>(null);
  const confirmed = typed.trim() === teamName.trim();

  function close() {
    if (busy) return;
    setOpened(false);
    setTyped('');
    setErrorCode(null);
  }

  async function confirm() {
    if (!confirmed) return;
    setBusy(true);
    setErrorCode(null);
    try {
      await onConfirm();
      setOpened(false);
      setTyped('');
    } catch (error) {
      setErrorCode(errorCodeOf(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <Group justify="flex-end">
        <Button color="red" variant="outline" disabled={disabled} onClick={() => setOpened(true)}>
          {button}
        </Button>
      </Group>
      <Modal
        opened={opened}
        onClose={close}
        title={
          <Text fw={650} size="lg">
            {modalTitle}
          </Text>
        }
        centered
        radius="lg"
        closeButtonProps={{ 'aria-label': t('deleteModal.close') }}
      >
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void confirm();
          }}
        >
          <Stack gap="md">
            {children}
            {errorCode && <ErrorAlert>{errorText(errorCode)}</ErrorAlert>}
            <TextInput
              label={t('teams.danger.typeToConfirm', { name: teamName })}
              value={typed}
              onChange={(event) => setTyped(event.currentTarget.value)}
              autoComplete="off"
              data-autofocus
            />
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={close} disabled={busy}>
                {t('teams.danger.cancel')}
              </Button>
              <Button type="submit" color="red" disabled={!confirmed} loading={busy}>
                {button}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </>
  );
}
