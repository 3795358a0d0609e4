/**
 * An irreversible deletion (SPEC.md section 4): a danger section with a button that opens a modal in
 * which typing the word "confirm" enables Delete. Used for the profile and for projects.
 */
import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from './ErrorAlert';
import { Section } from './Section';

/** SPEC.md section 4: the word that enables a deletion. Not translated: the same word in every language. */
export const deleteConfirmWord = 'confirm';

export function DeleteSection({
  labelId,
  title,
  description,
  button,
  modalTitle,
  modalBody,
  failedText,
  onConfirm,
}: {
  labelId: string;
  title: string;
  description: ReactNode;
  /** Label of the button that opens the modal. */
  button: string;
  modalTitle: string;
  modalBody: ReactNode;
  /** Shown in the modal when `onConfirm` throws. */
  failedText: string;
  /** Deletes and moves on (navigation); throwing keeps the modal open with `failedText`. */
  onConfirm: () => Promise<void>;
}) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const [typed, setTyped] = useState('');
  const [deleting, setDeleting] = useState(false);
  const [failed, setFailed] = useState(false);
  const confirmed = typed.trim().toLowerCase() === deleteConfirmWord;

  function close() {
    if (deleting) return;
    setOpened(false);
    setTyped('');
    setFailed(false);
  }

  async function remove() {
    if (!confirmed) return;
    setDeleting(true);
    setFailed(false);
    try {
      await onConfirm();
    } catch {
      setFailed(true);
      setDeleting(false);
    }
  }

  return (
    <Section title={title} description={description} labelId={labelId} danger>
      <Group justify="flex-end">
        <Button
          color="red"
          variant="outline"
          leftSection={<IconTrash size={16} />}
          onClick={() => setOpened(true)}
        >
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
            void remove();
          }}
        >
          <Stack gap="md">
            <Text size="sm">{modalBody}</Text>
            {failed && <ErrorAlert>{failedText}</ErrorAlert>}
            <TextInput
              label={t('deleteModal.typeToConfirm', { word: deleteConfirmWord })}
              placeholder={deleteConfirmWord}
              value={typed}
              onChange={(event) => setTyped(event.currentTarget.value)}
              autoComplete="off"
              data-autofocus
            />
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={close} disabled={deleting}>
                {t('deleteModal.cancel')}
              </Button>
              <Button type="submit" color="red" disabled={!confirmed} loading={deleting}>
                {t('deleteModal.confirm')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </Section>
  );
}
