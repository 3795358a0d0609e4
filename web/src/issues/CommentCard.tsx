/**
 * A comment in the timeline: author, time, "edited", and an "Internal" badge with a lock icon and its own
 * word (never colour alone) for the team-only ones. The body is plain text, never markup. The author may
 * edit it; the author, ADMIN and OWNER may delete it (after a confirmation).
 */
import { Badge, Button, Group, Paper, Stack, Text, Textarea } from '@mantine/core';
import { IconLock, IconPencil, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CommentView } from '#contracts/triage';
import { ErrorAlert } from '../components/ErrorAlert';
import { toastSuccess } from '../components/toast';
import { refusalText } from '../forms/validate';
import { actorText } from './actor-text';
import { useCommentLimit } from './Composer';
import { ConfirmAction } from './ConfirmAction';
import { deleteComment, editComment } from './data';
import { viaExtensionOf, viaTokenOf } from './detail-model';
import { formatDate } from './model';
import { TrackerLink } from './TrackerLink';

export function CommentCard({
  projectId,
  n,
  comment,
  rights,
  locale,
}: {
  projectId: string;
  n: number;
  comment: CommentView;
  rights: { edit: boolean; remove: boolean };
  locale: string;
}) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  const internal = comment.visibility === 'internal';
  const time = formatDate(comment.createdAt, locale);
  return (
    <Paper
      withBorder
      radius="md"
      p="sm"
      data-testid="comment"
      data-visibility={comment.visibility}
      style={internal ? { borderStyle: 'dashed', background: 'var(--mantine-color-yellow-0)' } : undefined}
    >
      <Stack gap={6}>
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Group gap="xs" wrap="wrap">
            <Text size="sm" fw={600}>
              {actorText(t, comment.author.name, viaTokenOf(comment.author), viaExtensionOf(comment.author))}
            </Text>
            <TrackerLink actor={comment.author} />
            <Text size="xs" c="dimmed">
              <time dateTime={comment.createdAt}>{time}</time>
              {comment.editedAt && ` · ${t('triageDetail.comment.edited')}`}
            </Text>
            {internal && (
              <Badge
                color="dark"
                variant="outline"
                leftSection={<IconLock size={12} aria-hidden />}
                title={t('triageDetail.comment.internalHint')}
              >
                {t('triageDetail.comment.internal')}
              </Badge>
            )}
          </Group>
          {!editing && (rights.edit || rights.remove) && (
            <Group gap={4}>
              {rights.edit && (
                <Button
                  size="compact-xs"
                  variant="subtle"
                  leftSection={<IconPencil size={12} aria-hidden />}
                  aria-label={t('triageDetail.comment.editNamed', { time })}
                  onClick={() => setEditing(true)}
                >
                  {t('triageDetail.comment.edit')}
                </Button>
              )}
              {rights.remove && (
                <ConfirmAction
                  title={t('triageDetail.comment.deleteTitle')}
                  body={t('triageDetail.comment.deleteBody')}
                  confirm={t('triageDetail.comment.deleteConfirm')}
                  onConfirm={async () => {
                    await deleteComment(projectId, n, comment.id);
                    toastSuccess(t('triageDetail.comment.deleted'));
                  }}
                  trigger={(open) => (
                    <Button
                      size="compact-xs"
                      variant="subtle"
                      color="red"
                      leftSection={<IconTrash size={12} aria-hidden />}
                      aria-label={t('triageDetail.comment.deleteNamed', { time })}
                      onClick={open}
                    >
                      {t('triageDetail.comment.delete')}
                    </Button>
                  )}
                />
              )}
            </Group>
          )}
        </Group>
        {editing ? (
          <EditForm
            projectId={projectId}
            n={n}
            comment={comment}
            locale={locale}
            onDone={() => setEditing(false)}
          />
        ) : (
          <Text
            size="sm"
            style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
            data-testid="comment-body"
          >
            {comment.body}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}

function EditForm({
  projectId,
  n,
  comment,
  locale,
  onDone,
}: {
  projectId: string;
  n: number;
  comment: CommentView;
  locale: string;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const [body, setBody] = useState(comment.body);
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const { excess, tooLong } = useCommentLimit(body, locale);
  async function submit() {
    if (excess > 0) return;
    setBusy(true);
    setRefusal(null);
    try {
      await editComment(projectId, n, comment.id, body);
      onDone();
    } catch (error) {
      setRefusal(refusalText(error));
    } finally {
      setBusy(false);
    }
  }
  return (
    <Stack gap="xs">
      <Textarea
        label={t('triageDetail.comment.editField')}
        value={body}
        autosize
        minRows={2}
        error={tooLong}
        onChange={(e) => setBody(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) void submit();
          if (e.key === 'Escape') onDone();
        }}
        data-autofocus
      />
      {refusal && <ErrorAlert>{refusal}</ErrorAlert>}
      <Group gap="xs" justify="flex-end">
        <Button variant="default" size="xs" onClick={onDone} disabled={busy}>
          {t('triageDetail.comment.cancel')}
        </Button>
        <Button size="xs" loading={busy} disabled={!body.trim() || excess > 0} onClick={() => void submit()}>
          {t('triageDetail.comment.save')}
        </Button>
      </Group>
    </Stack>
  );
}
