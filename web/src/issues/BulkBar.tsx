/**
 * The bulk action bar (issue 23): shown while rows are selected, it sets status, priority, assignee or a
 * label on all of them in one call (PATCH …/requests), or resolves (on the Resolved list: reopens) them.
 * Each action is a menu button, so the bar is a row of labelled buttons a keyboard walks with Tab and the
 * menus with the arrow keys. The selection count and the outcome are announced through one live region.
 */
import { Alert, Button, Group, Menu, Paper, Text, VisuallyHidden } from '@mantine/core';
import { IconArchive, IconChevronDown, IconRestore, IconX } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { type BulkPatch, type IssueStatus, type Label, priorities } from '#contracts/triage';
import type { BulkTriage } from './triage-hooks';
import { type Person, personName } from './triage-model';

type Set = BulkPatch['set'];

export function BulkBar({
  bulk,
  statuses,
  members,
  labels,
  self,
  resolved,
}: {
  bulk: BulkTriage;
  statuses: readonly IssueStatus[];
  members: readonly Person[];
  labels: readonly Label[];
  /** The caller's user id, for "Assign to me". */
  self: string | null;
  resolved: boolean;
}) {
  const { t } = useTranslation();
  const { count, busy, notice, run, clear, dismiss } = bulk;
  const selected = t('triageList.selected', { count });
  const labelItems = (key: 'add' | 'remove') =>
    labels.map((l) => ({ key: l.id, label: l.name, set: { labels: { [key]: [l.id] } } }));
  return (
    <>
      <VisuallyHidden role="status">{count > 0 ? selected : (notice ?? '')}</VisuallyHidden>
      {count === 0 && notice && (
        <Alert
          color="teal"
          withCloseButton
          closeButtonLabel={t('app.closeToast')}
          onClose={dismiss}
          role="none"
        >
          {notice}
        </Alert>
      )}
      {count > 0 && (
        <Paper
          component="section"
          aria-label={t('triageList.bulkBar')}
          withBorder
          shadow="md"
          radius="lg"
          p="sm"
          pos="sticky"
          bottom={12}
          style={{ zIndex: 5 }}
          data-testid="bulk-bar"
        >
          <Group gap="xs" wrap="wrap">
            <Text fw={600} size="sm" mr="xs" aria-hidden>
              {selected}
            </Text>
            <ActionMenu
              title={t('triageList.setStatus')}
              busy={busy}
              onPick={run}
              items={statuses.map((s) => ({ key: s, label: t(`triage.status.${s}`), set: { status: s } }))}
            />
            <ActionMenu
              title={t('triageList.setPriority')}
              busy={busy}
              onPick={run}
              items={[...priorities]
                .reverse()
                .map((p) => ({ key: p, label: t(`triage.priority.${p}`), set: { priority: p } }))}
            />
            <ActionMenu
              title={t('triageList.assign')}
              busy={busy}
              onPick={run}
              items={[
                ...(self ? [{ key: 'me', label: t('triage.me'), set: { assignee: self } }] : []),
                { key: 'none', label: t('triage.unassigned'), set: { assignee: null } },
                ...members.map((m) => ({ key: m.userId, label: personName(m), set: { assignee: m.userId } })),
              ]}
            />
            {labels.length > 0 && (
              <>
                <ActionMenu
                  title={t('triageList.addLabel')}
                  busy={busy}
                  onPick={run}
                  items={labelItems('add')}
                />
                <ActionMenu
                  title={t('triageList.removeLabel')}
                  busy={busy}
                  onPick={run}
                  items={labelItems('remove')}
                />
              </>
            )}
            <Button
              size="sm"
              color={resolved ? 'brand' : 'teal'}
              loading={busy}
              leftSection={resolved ? <IconRestore size={16} /> : <IconArchive size={16} />}
              onClick={() => void run({ status: resolved ? 'new' : 'resolved' })}
            >
              {resolved ? t('issue.restore') : t('triageList.close')}
            </Button>
            <Button size="sm" variant="subtle" leftSection={<IconX size={16} />} onClick={clear}>
              {t('triageList.clearSelection')}
            </Button>
          </Group>
        </Paper>
      )}
    </>
  );
}

function ActionMenu({
  title,
  items,
  busy,
  onPick,
}: {
  title: string;
  items: { key: string; label: ReactNode; set: Set }[];
  busy: boolean;
  onPick: (set: Set) => Promise<void>;
}) {
  return (
    <Menu position="top-start" withinPortal>
      <Menu.Target>
        <Button size="sm" variant="default" disabled={busy} rightSection={<IconChevronDown size={14} />}>
          {title}
        </Button>
      </Menu.Target>
      <Menu.Dropdown aria-label={title} mah={320} style={{ overflowY: 'auto' }}>
        {items.map((item) => (
          <Menu.Item key={item.key} onClick={() => void onPick(item.set)}>
            {item.label}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
