/**
 * One activity entry of the timeline in plain words ("Jane set priority to High", "Jane via API token CI
 * set priority to High"), with its time.
 */
import { Group, Text, ThemeIcon } from '@mantine/core';
import {
  IconAlertTriangle,
  IconCalendar,
  IconCircleDot,
  IconFlag,
  IconLink,
  IconSend,
  IconTag,
  IconTrash,
  IconUser,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { ActivityView, Label } from '#contracts/triage';
import { actorText } from './actor-text';
import { activityWords, fullName, type Person } from './detail-model';
import { formatDate } from './model';
import { TrackerLink } from './TrackerLink';

const icons: Partial<Record<ActivityView['kind'], typeof IconFlag>> = {
  status: IconCircleDot,
  closed: IconCircleDot,
  restored: IconCircleDot,
  followed: IconCircleDot,
  unfollowed: IconCircleDot,
  priority: IconFlag,
  assignee: IconUser,
  labels: IconTag,
  dueDate: IconCalendar,
  'comment.deleted': IconTrash,
  delivered: IconSend,
  'delivery.failed': IconAlertTriangle,
  linked: IconLink,
};

export function ActivityLine({
  entry,
  people,
  labels,
  locale,
}: {
  entry: ActivityView;
  people: readonly Person[];
  labels: readonly Label[];
  locale: string;
}) {
  const { t } = useTranslation();
  const words = activityWords(entry, {
    person: (id) => {
      const p = people.find((x) => x.userId === id);
      return p ? fullName(p) : null;
    },
    label: (id) => labels.find((l) => l.id === id),
  });
  const values: Record<string, string | number> = { ...words.values };
  if (typeof values.actor === 'string')
    values.actor = actorText(t, values.actor, words.via, words.viaExtension);
  // Status and priority values are the contract's names: shown in the UI language.
  if (entry.kind === 'status' || entry.kind === 'unfollowed')
    values.to = t(`triage.status.${String(entry.to)}` as 'triage.status.new');
  if (entry.kind === 'priority')
    values.to = t(`triage.priority.${String(entry.to)}` as 'triage.priority.none');
  if (words.key === 'dueDate')
    values.to = new Date(`${values.to}T00:00:00`).toLocaleDateString(locale, { dateStyle: 'medium' });
  if (typeof values.integration === 'string' && values.integration)
    values.integration = t(`integrations.${values.integration}` as 'integrations.email', values.integration);
  const Icon = icons[entry.kind] ?? IconCircleDot;
  const failed = entry.kind === 'delivery.failed';
  return (
    <Group gap="sm" wrap="nowrap" align="flex-start" data-testid="activity-line">
      <ThemeIcon variant="light" color={failed ? 'red' : 'gray'} size="sm" radius="xl" aria-hidden>
        <Icon size={14} />
      </ThemeIcon>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {/* The key and its values come from activityWords, which the unit tests hold to the catalogue. */}
        {(t as (key: string, values: object) => string)(`triageDetail.activity.${words.key}`, values)}{' '}
        <Text span size="xs" c="dimmed">
          · <time dateTime={entry.at}>{formatDate(entry.at, locale)}</time>
        </Text>
        <TrackerLink actor={entry.actor} />
      </Text>
    </Group>
  );
}
