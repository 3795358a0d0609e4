/**
 * Where a synced change came from (issue 24's two-way sync): for an actor of kind tracker, a link to the
 * tracker issue ("Open on GitLab"). The address came in a tracker's webhook: only http(s) is a link.
 */
import { Anchor, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { IntegrationName } from '#contracts/integration-names';
import type { Actor } from '#contracts/triage';
import { trackerLinkOf } from './detail-model';

export function TrackerLink({ actor }: { actor: Actor }) {
  const { t } = useTranslation();
  const link = trackerLinkOf(actor);
  if (!link) return null;
  const tracker = t(`integrations.${link.vendor}` as `integrations.${IntegrationName}`, link.vendor);
  return (
    <Text span size="xs">
      {' · '}
      <Anchor href={link.url} target="_blank" rel="noopener noreferrer" size="xs" underline="always">
        {t('triageDetail.activity.trackerLink', { tracker })}
      </Anchor>
    </Text>
  );
}
