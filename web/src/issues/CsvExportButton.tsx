/**
 * "Export CSV" (issue 23): a plain link to GET …/requests.csv with the view's search and filters, so the
 * browser downloads it with the session cookie and the file holds what the view shows, every page of it.
 */
import { Button } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { FilterQuery } from './filters';
import { csvExportPath } from './model';

export function CsvExportButton({
  projectId,
  resolved,
  search,
  filters,
}: {
  projectId: string;
  resolved: boolean;
  search: string;
  filters: FilterQuery;
}) {
  const { t } = useTranslation();
  return (
    <Button
      component="a"
      href={csvExportPath(projectId, resolved, search, filters)}
      download
      variant="default"
      size="sm"
      leftSection={<IconDownload size={16} aria-hidden />}
      title={t('triageList.exportCsvLabel')}
      data-testid="csv-export"
    >
      {t('triageList.exportCsv')}
    </Button>
  );
}
