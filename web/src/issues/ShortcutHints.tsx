/** The issue screen's keyboard shortcuts, shown from tablet width (phones have no keyboard to use them). */
import { Group, Kbd } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** `triage`: the caller may resolve (not a GUEST), so e is a shortcut. */
export function ShortcutHints({ resolved, triage }: { resolved: boolean; triage: boolean }) {
  const { t } = useTranslation();
  return (
    <Group gap="md" justify="center" visibleFrom="sm" c="dimmed" fz="xs">
      <span>
        <Kbd size="xs">j</Kbd> {t('issue.nextShort')}
      </span>
      <span>
        <Kbd size="xs">k</Kbd> {t('issue.previousShort')}
      </span>
      {!resolved && triage && (
        <span>
          <Kbd size="xs">e</Kbd> {t('issue.close')}
        </span>
      )}
    </Group>
  );
}
