/**
 * Configuration → Labels (issue 23): the project's labels (up to 50), created with a name and a colour,
 * renamed, recoloured and deleted (after a confirmation: a deleted label leaves every issue). OWNER and
 * ADMIN only: the configuration screens are theirs (ProjectGate `settings`), as the server's `labels` action.
 */
import { Button, Group, Stack, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ErrorCode } from '#contracts/errors';
import { triageLimits } from '#contracts/triage';
import { errorCodeOf } from '../../api';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Section } from '../../components/Section';
import { toastSuccess } from '../../components/toast';
import { errorText } from '../../i18n';
import { createLabel, useProjectLabels } from '../data';
import { labelPresets } from '../detail-model';
import { type LabelDraft, LabelEditor, validColor } from './LabelEditor';
import { LabelRow } from './LabelRow';

export function ProjectLabels({ projectId }: { projectId: string }) {
  const { t } = useTranslation();
  const labels = useProjectLabels(projectId);
  const [draft, setDraft] = useState<LabelDraft>({ name: '', color: labelPresets[5] });
  const [busy, setBusy] = useState(false);
  const [code, setCode] = useState<ErrorCode | null>(null);
  const full = (labels?.length ?? 0) >= triageLimits.labelsPerProject;
  const ready = draft.name.trim() !== '' && validColor(draft.color) && !full;

  async function create() {
    if (!ready || busy) return;
    setBusy(true);
    setCode(null);
    try {
      const label = await createLabel(projectId, { name: draft.name.trim(), color: draft.color });
      toastSuccess(t('labels.created', { name: label.name }));
      setDraft({ name: '', color: draft.color });
    } catch (error) {
      setCode(errorCodeOf(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Stack gap="lg">
      <Section
        title={t('labels.title')}
        labelId="labels-list"
        description={t('labels.description', {
          count: labels?.length ?? 0,
          max: triageLimits.labelsPerProject,
        })}
      >
        {labels?.length === 0 && (
          <Text size="sm" c="dimmed">
            {t('labels.empty')}
          </Text>
        )}
        <Stack component="ul" gap={0} m={0} p={0} style={{ listStyle: 'none' }} data-testid="label-list">
          {labels?.map((label) => (
            <LabelRow key={label.id} projectId={projectId} label={label} />
          ))}
        </Stack>
      </Section>
      <Section title={t('labels.add')} labelId="labels-add">
        <Stack gap="md" data-testid="label-create">
          {full ? (
            <Text size="sm">{t('labels.full', { max: triageLimits.labelsPerProject })}</Text>
          ) : (
            <LabelEditor
              value={draft}
              onChange={setDraft}
              idPrefix="label-new"
              onEnter={() => void create()}
            />
          )}
          {code && <ErrorAlert>{errorText(code)}</ErrorAlert>}
          <Group justify="flex-end">
            <Button
              leftSection={<IconPlus size={16} aria-hidden />}
              loading={busy}
              disabled={!ready}
              onClick={() => void create()}
            >
              {t('labels.create')}
            </Button>
          </Group>
        </Stack>
      </Section>
    </Stack>
  );
}
