/**
 * The notice that an answer looked at a window of the list only (issue 23): `filterWindow` when filters were
 * combined (the API reads at most that many issues of the smallest filter), `searchWindow` for a search.
 */
import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export function WindowNotice({
  filterWindow,
  searchWindow,
}: {
  filterWindow?: number;
  searchWindow?: number;
}) {
  const { t } = useTranslation();
  if (filterWindow === undefined && searchWindow === undefined) return null;
  return (
    <Text size="sm" c="dimmed" role="status" data-testid="window-notice">
      {filterWindow !== undefined
        ? t('triage.filterWindow', { count: filterWindow })
        : t('issueList.searchWindow', { count: searchWindow ?? 0 })}
    </Text>
  );
}
