/**
 * The comment composer (issue 23): a textarea with `@` completion of the team's members (arrow keys choose,
 * Enter or Tab inserts `@First Last`, Escape closes; the textarea points at the listbox's active option with
 * `aria-activedescendant`, and a live region says how many match), the Internal/Public choice (a GUEST
 * writes public comments only and is told so), Ctrl/Cmd+Enter to send, and a character count near 5,000;
 * past it the text stays whole and is refused with how much is over (a paste is never cut).
 */
import { Box, Button, Group, Radio, Stack, Text, Textarea, VisuallyHidden } from '@mantine/core';
import { IconSend } from '@tabler/icons-react';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type CommentVisibility, triageLimits } from '#contracts/triage';
import { ErrorAlert } from '../components/ErrorAlert';
import { toastSuccess } from '../components/toast';
import { refusalText } from '../forms/validate';
import { addComment } from './data';
import {
  commentExcess,
  countFrom,
  insertMention,
  mentionAt,
  mentionMatches,
  type Person,
} from './detail-model';
import { MentionList, mentionOptionId } from './MentionList';

export function Composer({
  projectId,
  n,
  people,
  internalAllowed,
  locale,
}: {
  projectId: string;
  n: number;
  people: readonly Person[];
  /** OWNER, ADMIN and MEMBER choose; a GUEST writes public comments only. */
  internalAllowed: boolean;
  locale: string;
}) {
  const { t } = useTranslation();
  const listId = useId();
  const ref = useRef<HTMLTextAreaElement>(null);
  const [text, setText] = useState('');
  const [caret, setCaret] = useState(0);
  const [visibility, setVisibility] = useState<CommentVisibility>(internalAllowed ? 'internal' : 'public');
  const [active, setActive] = useState(0);
  // The mention (by its `@`'s place) the user closed with Escape stays closed until another one starts.
  const [dismissed, setDismissed] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const { excess, tooLong } = useCommentLimit(text, locale);

  const mention = mentionAt(text, caret);
  const matches = mention && mention.start !== dismissed ? mentionMatches(people, mention.query) : [];
  const open = matches.length > 0;
  const index = Math.min(active, Math.max(0, matches.length - 1));

  const track = () => setCaret(ref.current?.selectionStart ?? 0);

  function pick(person: Person) {
    if (!mention) return;
    const next = insertMention(text, mention.start, caret, person);
    setText(next.text);
    setCaret(next.caret);
    setActive(0);
    requestAnimationFrame(() => ref.current?.setSelectionRange(next.caret, next.caret));
  }

  async function send() {
    if (!text.trim() || busy || excess > 0) return;
    setBusy(true);
    setRefusal(null);
    try {
      await addComment(projectId, n, text, internalAllowed ? visibility : 'public');
      setText('');
      setCaret(0);
      toastSuccess(t('triageDetail.composer.sent'));
    } catch (error) {
      setRefusal(refusalText(error));
    } finally {
      setBusy(false);
    }
  }

  function onKeyDown(e: React.KeyboardEvent<HTMLTextAreaElement>) {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      void send();
      return;
    }
    if (!open) return;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setActive((index + step + matches.length) % matches.length);
    } else if (e.key === 'Enter' || e.key === 'Tab') {
      e.preventDefault();
      const p = matches[index];
      if (p) pick(p);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      setDismissed(mention?.start ?? null);
    }
  }

  const count = text.length;
  return (
    <Stack gap="xs" data-testid="composer">
      <Box pos="relative">
        <Textarea
          ref={ref}
          label={t('triageDetail.composer.field')}
          placeholder={t('triageDetail.composer.placeholder')}
          description={t('triageDetail.composer.sendHint')}
          value={text}
          autosize
          minRows={3}
          maxRows={12}
          error={tooLong}
          onChange={(e) => {
            const value = e.currentTarget.value;
            const at = e.currentTarget.selectionStart ?? 0;
            setText(value);
            setCaret(at);
            setActive(0);
            // A closed completion opens again once its mention is gone and a new one is typed.
            if (!mentionAt(value, at)) setDismissed(null);
          }}
          onKeyDown={onKeyDown}
          onKeyUp={(e) => {
            if (!['ArrowDown', 'ArrowUp', 'Enter', 'Tab', 'Escape'].includes(e.key)) track();
          }}
          onClick={track}
          onBlur={() => setDismissed(mention?.start ?? null)}
          onFocus={() => setDismissed(null)}
          aria-autocomplete="list"
          aria-controls={open ? listId : undefined}
          aria-activedescendant={open ? mentionOptionId(listId, index) : undefined}
        />
        {open && <MentionList id={listId} people={matches} active={index} onPick={pick} />}
        <VisuallyHidden role="status">
          {open ? t('triageDetail.composer.mentionCount', { count: matches.length }) : ''}
        </VisuallyHidden>
      </Box>
      {refusal && <ErrorAlert>{refusal}</ErrorAlert>}
      <Group justify="space-between" align="center" gap="sm" wrap="wrap">
        {internalAllowed ? (
          <Radio.Group
            value={visibility}
            onChange={(v) => setVisibility(v as CommentVisibility)}
            label={t('triageDetail.composer.visibility')}
          >
            <Group gap="md" mt={4}>
              <Radio value="internal" label={t('triageDetail.composer.internal')} />
              <Radio value="public" label={t('triageDetail.composer.public')} />
            </Group>
          </Radio.Group>
        ) : (
          <Text size="sm" c="dimmed">
            {t('triageDetail.composer.guestPublic')}
          </Text>
        )}
        <Group gap="sm">
          {count >= countFrom && (
            <Text size="xs" c={count >= triageLimits.commentMax ? 'red.9' : 'dimmed'} role="status">
              {t('triageDetail.composer.count', {
                used: count.toLocaleString(locale),
                max: triageLimits.commentMax.toLocaleString(locale),
              })}
            </Text>
          )}
          <Button
            leftSection={<IconSend size={16} aria-hidden />}
            loading={busy}
            disabled={!text.trim() || excess > 0}
            onClick={() => void send()}
          >
            {t('triageDetail.composer.send')}
          </Button>
        </Group>
      </Group>
    </Stack>
  );
}

/**
 * A comment field's limit: how far over it the text is, and the message that says so (the field shows
 * it as its error, so it is announced and tied to the field), or undefined within it.
 */
export function useCommentLimit(text: string, locale: string): { excess: number; tooLong?: string } {
  const { t } = useTranslation();
  const excess = commentExcess(text);
  if (excess === 0) return { excess };
  return {
    excess,
    tooLong: t('triageDetail.composer.tooLong', {
      count: excess,
      over: excess.toLocaleString(locale),
      max: triageLimits.commentMax.toLocaleString(locale),
    }),
  };
}
