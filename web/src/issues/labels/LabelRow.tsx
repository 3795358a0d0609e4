/** One label of the project's list: its chip, Edit (rename and recolour in place) and Delete (confirmed). */
import { Button, Group, Stack } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ErrorCode } from '#contracts/errors';
import type { Label } from '#contracts/triage';
import { errorCodeOf } from '../../api';
import { ErrorAlert } from '../../components/ErrorAlert';
import { toastSuccess } from '../../components/toast';
import { errorText } from '../../i18n';
import { ConfirmAction } from '../ConfirmAction';
import { deleteLabel, updateLabel } from '../data';
import { LabelChip } from '../TriageChips';
import { type LabelDraft, LabelEditor, validColor } from './LabelEditor';

export function LabelRow({ projectId, label }: { projectId: string; label: Label }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<LabelDraft | null>(null);
  const [busy, setBusy] = useState(false);
  const [code, setCode] = useState<ErrorCode | null>(null);

  async function save() {
    if (!draft || busy || !draft.name.trim() || !validColor(draft.color)) return;
    const change = {
      ...(draft.name.trim() !== label.name ? { name: draft.name.trim() } : {}),
      ...(draft.color.toLowerCase() !== label.color.toLowerCase() ? { color: draft.color } : {}),
    };
    if (Object.keys(change).length === 0) return setDraft(null);
    setBusy(true);
    setCode(null);
    try {
      await updateLabel(projectId, label.id, change);
      toastSuccess(t('labels.saved'));
      setDraft(null);
    } catch (error) {
      setCode(errorCodeOf(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Stack
      component="li"
      gap="sm"
      py="sm"
      style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
      data-testid="label-row"
    >
      {draft ? (
        <>
          <LabelEditor
            value={draft}
            onChange={setDraft}
            idPrefix={`label-${label.id}`}
            onEnter={() => void save()}
          />
          {code && <ErrorAlert>{errorText(code)}</ErrorAlert>}
          <Group gap="xs" justify="flex-end">
            <Button variant="default" size="xs" onClick={() => setDraft(null)} disabled={busy}>
              {t('labels.cancel')}
            </Button>
            <Button
              size="xs"
              loading={busy}
              onClick={() => void save()}
              disabled={!draft.name.trim() || !validColor(draft.color)}
            >
              {t('labels.save')}
            </Button>
          </Group>
        </>
      ) : (
        // Wraps on phones so a long name keeps its whole chip.
        <Group justify="space-between" gap="sm">
          <LabelChip label={label} />
          <Group gap={4} wrap="nowrap">
            <Button
              size="compact-sm"
              variant="subtle"
              leftSection={<IconPencil size={14} aria-hidden />}
              aria-label={t('labels.editNamed', { name: label.name })}
              onClick={() => setDraft({ name: label.name, color: label.color })}
            >
              {t('labels.edit')}
            </Button>
            <ConfirmAction
              title={t('labels.deleteTitle', { name: label.name })}
              body={t('labels.deleteBody')}
              confirm={t('labels.deleteConfirm')}
              onConfirm={async () => {
                await deleteLabel(projectId, label.id);
                toastSuccess(t('labels.deleted', { name: label.name }));
              }}
              trigger={(open) => (
                <Button
                  size="compact-sm"
                  variant="subtle"
                  color="red"
                  leftSection={<IconTrash size={14} aria-hidden />}
                  aria-label={t('labels.deleteNamed', { name: label.name })}
                  onClick={open}
                >
                  {t('labels.delete')}
                </Button>
              )}
            />
          </Group>
        </Group>
      )}
    </Stack>
  );
}
