/** What Team → Privacy found for an address: the issues, Export (with its progress) and Erase. */
import { Button, Group, Paper, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { DataExportStatus, DataRequestIssue } from '#contracts/data-requests';
import { PersonDataList } from './PersonDataList';
import { PersonExportProgress } from './PersonExportProgress';

interface Props {
  issues: DataRequestIssue[];
  /** The address is a member's of the team: the export holds their comments too. */
  member: boolean;
  email: string;
  narrow: boolean | undefined;
  busy: boolean;
  job: DataExportStatus | null;
  onExport: () => void;
  onErase: () => void;
}

export function PersonDataResults({ issues, member, email, narrow, busy, job, onExport, onErase }: Props) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="md">
      <Stack gap="md">
        <Text role="status" fw={500} data-testid="privacy-summary">
          {t('teams.privacy.found', { count: issues.length, email })}
        </Text>
        {member && <Text size="sm">{t('teams.privacy.member')}</Text>}
        {issues.length > 0 && <PersonDataList issues={issues} narrow={narrow} />}
        {(issues.length > 0 || member) && (
          <Group gap="sm" wrap="wrap">
            <Button variant="default" onClick={onExport} disabled={busy} data-testid="privacy-export">
              {t('teams.privacy.export')}
            </Button>
            {issues.length > 0 && (
              <Button color="red" onClick={onErase} disabled={busy} data-testid="privacy-erase">
                {t('teams.privacy.erase')}
              </Button>
            )}
          </Group>
        )}
        {job && <PersonExportProgress job={job} />}
      </Stack>
    </Paper>
  );
}
