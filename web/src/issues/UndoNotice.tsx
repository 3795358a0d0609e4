/**
 * "Issue #12 resolved. Undo" (issue 19): shown on the screen a Resolve or Reopen moved on to (the next
 * issue, or the list), until the next navigation. Undo is a focused button and the `u` key, so a keyboard
 * user reaches it at once; it moves the issue back and opens it again.
 */
import { Alert, Button, Group, Kbd, Text } from '@mantine/core';
import { IconArrowBackUp, IconCircleCheck } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { toastError, toastSuccess } from '../components/toast';
import { paths } from '../paths';
import { setIssueState } from './data';
import { type FromList, isShortcutIgnored, undoOf } from './model';

export function UndoNotice({ projectId }: { projectId: string }) {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const undo = undoOf(location.state);
  const [busy, setBusy] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const number = undo?.number;
  useEffect(() => {
    if (number) button.current?.focus();
  }, [number]);

  async function run() {
    if (!undo || busy) return;
    setBusy(true);
    const from = (location.state as Partial<FromList> | null)?.from;
    try {
      // Undo of a resolve reopens (restore true); undo of a reopen resolves again.
      await setIssueState(projectId, undo.number, undo.resolved, () => {
        const state: FromList | null = from ? { from } : null;
        navigate(paths.ticket(projectId, String(undo.number)), { state });
      });
      toastSuccess(t(undo.resolved ? 'issue.restored' : 'issue.closed', { number: undo.number }));
    } catch {
      setBusy(false);
      toastError(t('issue.undoFailed'));
    }
  }

  useEffect(() => {
    if (!undo) return;
    function onKey(event: KeyboardEvent) {
      if (event.key !== 'u' || isShortcutIgnored(event)) return;
      event.preventDefault();
      void run();
    }
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  if (!undo) return null;
  const action = t(undo.resolved ? 'issue.undoAction_reopen' : 'issue.undoAction_resolve');
  return (
    <Alert
      color="teal"
      variant="light"
      radius="md"
      py="xs"
      icon={<IconCircleCheck size={18} />}
      data-testid="undo-notice"
    >
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Text size="sm" role="status">
          {t(undo.resolved ? 'issue.closed' : 'issue.restored', { number: undo.number })}
        </Text>
        <Group gap={8} wrap="nowrap">
          <Kbd size="xs" visibleFrom="sm" aria-hidden>
            u
          </Kbd>
          <Button
            ref={button}
            size="compact-sm"
            variant="white"
            loading={busy}
            leftSection={<IconArrowBackUp size={14} />}
            aria-label={t('issue.undoLabel', { number: undo.number, action })}
            aria-keyshortcuts="u"
            onClick={() => void run()}
          >
            {t('issue.undo')}
          </Button>
        </Group>
      </Group>
    </Alert>
  );
}
