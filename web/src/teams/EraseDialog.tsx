/** Erasing a reporter's data on Team → Privacy: only after the address is typed again. */
import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../components/ErrorAlert';

interface Props {
  opened: boolean;
  busy: boolean;
  email: string;
  count: number;
  error: string | null;
  onClose: () => void;
  /** The address as typed again (the server compares it too). */
  onErase: (typed: string) => void;
}

export function EraseDialog({ opened, busy, email, count, error, onClose, onErase }: Props) {
  const { t } = useTranslation();
  const [typed, setTyped] = useState('');
  // Each opening asks afresh.
  useEffect(() => {
    if (opened) setTyped('');
  }, [opened]);
  const matches = typed.trim().toLowerCase() === email.toLowerCase();
  return (
    <Modal
      opened={opened}
      onClose={() => !busy && onClose()}
      title={t('teams.privacy.eraseTitle')}
      centered
      closeButtonProps={{ 'aria-label': t('deleteModal.close') }}
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (matches) onErase(typed);
        }}
      >
        <Stack gap="md">
          <Text>{t('teams.privacy.eraseText', { count, email })}</Text>
          {error && <ErrorAlert>{error}</ErrorAlert>}
          <TextInput
            label={t('teams.privacy.typeToConfirm', { email })}
            value={typed}
            onChange={(e) => setTyped(e.currentTarget.value)}
            autoComplete="off"
            data-autofocus
            data-testid="privacy-confirm"
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose} disabled={busy}>
              {t('teams.privacy.cancel')}
            </Button>
            <Button
              type="submit"
              color="red"
              loading={busy}
              disabled={!matches}
              data-testid="privacy-erase-confirm"
            >
              {t('teams.privacy.eraseConfirm')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
