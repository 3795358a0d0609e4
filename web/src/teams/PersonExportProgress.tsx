/** An export of a reporter's data as it runs on Team → Privacy: progress, then the download link. */
import { Anchor, Progress, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { DataExportStatus } from '#contracts/data-requests';

export function PersonExportProgress({ job }: { job: DataExportStatus }) {
  const { t } = useTranslation();
  return (
    <Stack gap={4} data-testid="privacy-job">
      <Progress
        value={job.total ? (100 * job.done) / job.total : 100}
        aria-label={t('teams.privacy.progress', { done: job.done, total: job.total })}
      />
      <Text size="sm" role="status">
        {job.state === 'done'
          ? t('teams.privacy.ready')
          : job.state === 'failed'
            ? t(job.reason === 'too_large' ? 'teams.privacy.tooLarge' : 'teams.privacy.failed')
            : t('teams.privacy.progress', { done: job.done, total: job.total })}
      </Text>
      {job.url && (
        <Anchor href={job.url} data-testid="privacy-download">
          {t('teams.privacy.download')}
        </Anchor>
      )}
    </Stack>
  );
}
