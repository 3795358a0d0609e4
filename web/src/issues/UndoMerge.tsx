/**
 * "#14 merged into #12. Undo" (issue 37): the notice after a merge or unmerge on the issue page, in the
 * UndoNotice pattern: its text a status message, its Undo button focused at once so a keyboard user is on it.
 */
import { Alert, Button, Group, Text } from '@mantine/core';
import { IconArrowBackUp } from '@tabler/icons-react';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';

export function UndoMerge({ text, busy, onUndo }: { text: string; busy: boolean; onUndo: () => void }) {
  const { t } = useTranslation();
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (text) button.current?.focus();
  }, [text]);
  return (
    <Alert color="teal" variant="light" py="xs" data-testid="merge-undo">
      <Group justify="space-between" gap="xs">
        <Text size="sm" role="status">
          {text}
        </Text>
        <Button
          ref={button}
          size="compact-sm"
          variant="white"
          loading={busy}
          leftSection={<IconArrowBackUp size={14} />}
          aria-label={t('merge.undoLabel', { action: text })}
          onClick={onUndo}
        >
          {t('merge.undo')}
        </Button>
      </Group>
    </Alert>
  );
}
