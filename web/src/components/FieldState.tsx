/** A triage field's save state under it: saving, saved or not saved (with the catalogue's reason). */
import { Group, Loader, Text } from '@mantine/core';
import { IconAlertCircle, IconCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { ErrorCode } from '#contracts/errors';
import { errorText } from '../i18n';

export type SaveState = { state: 'idle' | 'saving' | 'saved' } | { state: 'failed'; code: ErrorCode };

/** Announced politely; the words carry the state, the icon only repeats it (never colour alone). */
export function FieldState({ id, save }: { id: string; save: SaveState | undefined }) {
  const { t } = useTranslation();
  const s = save ?? { state: 'idle' };
  return (
    <Text id={id} size="xs" role="status" mih={18} component="div" data-save-state={s.state}>
      {s.state === 'saving' && (
        <Group gap={4} wrap="nowrap">
          <Loader size={10} />
          <span>{t('triageDetail.panel.saving')}</span>
        </Group>
      )}
      {s.state === 'saved' && (
        <Group gap={4} wrap="nowrap" c="teal.9">
          <IconCheck size={12} aria-hidden />
          <span>{t('triageDetail.panel.saved')}</span>
        </Group>
      )}
      {s.state === 'failed' && (
        <Group gap={4} wrap="nowrap" c="red.9" align="flex-start">
          <IconAlertCircle size={12} aria-hidden style={{ flexShrink: 0, marginTop: 2 }} />
          <span>{t('triageDetail.panel.failed', { error: errorText(s.code) })}</span>
        </Group>
      )}
    </Text>
  );
}
