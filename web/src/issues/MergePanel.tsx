/**
 * Merging on the issue page (issue 37, docs/similar.md "Merging"): a duplicate's banner ("Duplicate of #12",
 * Unmerge), the primary's reports (DuplicatesList), the suggestions (SimilarPanel) and "Mark as duplicate
 * of…" by number. A merge or unmerge offers Undo in a notice with the focus on its button, as a Resolve does
 * (UndoNotice). Only who may triage gets the actions; a GUEST sees the banner and the reports.
 */
import { Alert, Anchor, Button, Group, NumberInput, Stack, Text } from '@mantine/core';
import { IconCopy } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { IssueAnswer } from '#contracts/review';
import type { MergeAnswer } from '#contracts/similar';
import { ApiError } from '../api/client';
import { Section } from '../components/Section';
import { toastError } from '../components/toast';
import { paths } from '../paths';
import { DuplicatesList } from './DuplicatesList';
import { mergeIssue, unmergeIssue } from './data';
import { SimilarPanel } from './SimilarPanel';
import { UndoMerge } from './UndoMerge';

/** What the last action did to which duplicate, so Undo can do the opposite. */
type Done = { kind: 'merged' | 'unmerged'; dup: number; primary: number };

interface Props {
  projectId: string;
  issue: IssueAnswer;
  triage: boolean;
  locale: string;
}

export function MergePanel({ projectId, issue, triage, locale }: Props) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<Done | null>(null);
  const n = issue.number;

  async function run(call: () => Promise<MergeAnswer>, next: Done) {
    if (busy) return;
    setBusy(true);
    try {
      await call();
      setDone(next);
    } catch (error) {
      toastError(error instanceof ApiError ? error.message : t('merge.failed'));
    } finally {
      setBusy(false);
    }
  }
  const mergeOf = (dup: number, into: number) =>
    run(() => mergeIssue(projectId, dup, into), { kind: 'merged', dup, primary: into });
  const unmergeOf = (dup: number, primary: number) =>
    run(() => unmergeIssue(projectId, dup), { kind: 'unmerged', dup, primary });
  const merge = (into: number) => mergeOf(n, into);
  const unmerge = (primary: number) => unmergeOf(n, primary);
  // Undo does the opposite, and its notice offers the way back again (the focus stays on its button).
  const undo = () => {
    if (!done) return;
    if (done.kind === 'merged') void unmergeOf(done.dup, done.primary);
    else void mergeOf(done.dup, done.primary);
  };
  const alone = !issue.duplicateOf && issue.reports <= 1;

  return (
    <Stack gap="lg">
      {done && (
        <UndoMerge
          text={t(`merge.${done.kind}`, { n: done.dup, primary: done.primary })}
          busy={busy}
          onUndo={undo}
        />
      )}
      {issue.duplicateOf && (
        <Alert color="blue" variant="light" icon={<IconCopy size={18} />} data-testid="duplicate-banner">
          <Group justify="space-between" gap="xs">
            <Stack gap={2}>
              <Anchor component={Link} to={paths.ticket(projectId, String(issue.duplicateOf))} fw={600}>
                {t('merge.duplicateOf', { n: issue.duplicateOf })}
              </Anchor>
              <Text size="sm">{t('merge.duplicateHint', { n: issue.duplicateOf })}</Text>
            </Stack>
            {triage && (
              <Button
                size="compact-sm"
                variant="white"
                disabled={busy}
                aria-label={t('merge.unmergeLabel', { n: issue.duplicateOf })}
                onClick={() => issue.duplicateOf && void unmerge(issue.duplicateOf)}
              >
                {t('merge.unmerge')}
              </Button>
            )}
          </Group>
        </Alert>
      )}
      {issue.reports > 1 && <DuplicatesList projectId={projectId} issue={issue} locale={locale} />}
      {!issue.duplicateOf && (
        <SimilarPanel
          projectId={projectId}
          n={n}
          busy={busy}
          onMerge={triage && alone ? merge : undefined}
          onGather={triage ? (m) => void mergeOf(m, n) : undefined}
        />
      )}
      {triage && alone && <MarkDuplicate busy={busy} self={n} onMerge={(into) => void merge(into)} />}
    </Stack>
  );
}

function MarkDuplicate({
  busy,
  self,
  onMerge,
}: {
  busy: boolean;
  self: number;
  onMerge: (n: number) => void;
}) {
  const { t } = useTranslation();
  const [value, setValue] = useState<number | string>('');
  const into =
    typeof value === 'number' && Number.isInteger(value) && value > 0 && value !== self ? value : null;
  function submit(event: FormEvent) {
    event.preventDefault();
    if (into) onMerge(into);
  }
  return (
    <Section title={t('merge.markTitle')} description={t('merge.markHint')} labelId="merge-mark">
      <form onSubmit={submit}>
        <Group gap="xs" align="flex-end">
          <NumberInput
            label={t('merge.numberLabel')}
            min={1}
            allowDecimal={false}
            allowNegative={false}
            hideControls
            w={140}
            value={value}
            onChange={setValue}
            data-testid="merge-number"
          />
          <Button type="submit" variant="light" disabled={!into || busy}>
            {t('merge.mark')}
          </Button>
        </Group>
      </form>
    </Section>
  );
}
