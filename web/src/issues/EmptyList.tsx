/** The issue list without rows: nothing open, nothing resolved, no match, or a page past the end. */
import { Button, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconArchive, IconInbox } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

export function EmptyList({
  resolved,
  searching,
  filtered = false,
  pastEnd,
  onReset,
  onFirstPage,
}: {
  resolved: boolean;
  searching: boolean;
  /** Triage filters are set (issue 23): the reset clears them (and the search). */
  filtered?: boolean;
  pastEnd: boolean;
  onReset: () => void;
  onFirstPage: () => void;
}) {
  const { t } = useTranslation();
  const kind = filtered ? 'Filter' : searching ? 'Search' : resolved ? 'Resolved' : 'Open';
  const narrowed = searching || filtered;
  return (
    <Paper withBorder radius="lg" p={{ base: 'xl', sm: 48 }}>
      <Stack align="center" ta="center" gap="sm">
        <ThemeIcon size={56} radius="xl" variant="light">
          {resolved ? <IconArchive size={28} stroke={1.5} /> : <IconInbox size={28} stroke={1.5} />}
        </ThemeIcon>
        <Title order={2} size="h4">
          {t(`issueList.empty${kind}`)}
        </Title>
        <Text c="dimmed" maw={440}>
          {pastEnd && !narrowed ? t('issueList.pastEnd') : t(`issueList.empty${kind}Hint`)}
        </Text>
        {narrowed && (
          <Button variant="light" onClick={onReset}>
            {filtered ? t('triage.clearFilters') : t('issueList.clearSearch')}
          </Button>
        )}
        {pastEnd && !narrowed && (
          <Button variant="light" onClick={onFirstPage}>
            {t('issueList.firstPage')}
          </Button>
        )}
      </Stack>
    </Paper>
  );
}
