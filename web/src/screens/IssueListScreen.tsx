/**
 * /profile/site/{id} and /profile/resolved/{id} (SPEC.md section 2, Issue list): the project's new or
 * resolved issues, 10 a page, newest first. Page, search, the triage filters and the sort live in the
 * address (issue 23: saved views), so the back button and a shared link show the same list; a row opens the
 * issue and remembers this list for "back". A role that may triage selects rows and changes them in bulk.
 */
import { Group, Pagination, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router-dom';
import { limits } from '#contracts/limits';
import { issueStatuses, openStatuses } from '#contracts/triage';
import { ViewSwitch } from '../board/ViewSwitch';
import { PageLoader } from '../components/PageLoader';
import { useDocumentTitle } from '../hooks/title';
import { BulkBar } from '../issues/BulkBar';
import { CsvExportButton } from '../issues/CsvExportButton';
import { useIssueList } from '../issues/data';
import { EmptyList } from '../issues/EmptyList';
import { useListFilters, withFilters } from '../issues/filters';
import { IssueFilterBar } from '../issues/IssueFilterBar';
import { IssueTable } from '../issues/IssueTable';
import { issueListPath, type ListQuery, listQueryOf, listSearchParams, pageCount } from '../issues/model';
import { SearchBox } from '../issues/SearchBox';
import { useListTriage } from '../issues/triage-hooks';
import { UndoNotice } from '../issues/UndoNotice';
import { WindowNotice } from '../issues/WindowNotice';
import { useProject } from '../projects/data';
import { ProjectHeader } from '../projects/ProjectHeader';
import { can } from '../teams/model';

const resolvedStatuses = issueStatuses.filter((s) => !(openStatuses as readonly string[]).includes(s));

export default function IssueListScreen({ resolved }: { resolved: boolean }) {
  const { t } = useTranslation();
  const title = resolved ? t('screens.resolved') : t('screens.issues');
  useDocumentTitle(title);
  const { id } = useParams();
  const [params, setParams] = useSearchParams();
  const query = listQueryOf(params);
  const view = useListFilters();
  const { data: project } = useProject(id);
  const { data: list, isValidating } = useIssueList(id, resolved, query, view.query);
  const website = project?.website;
  const viewKey = id ? issueListPath(id, resolved, query, view.query) : '';
  const triage = useListTriage(id, website?.teamId, list?.requests, viewKey);

  function show(next: ListQuery, replace = false) {
    // Page and search change; the filters stay.
    setParams(withFilters(listSearchParams(next), view.filters, []), { replace });
  }

  if (!website || !list || !id) return <PageLoader />;
  const pages = pageCount(list.total_requests);
  const searching = query.search.trim() !== '';
  const statuses = resolved ? resolvedStatuses : openStatuses;
  const mayTriage = can(website.role, 'triage');
  return (
    <Stack gap="lg" maw={1080} mx="auto">
      <Group justify="space-between" align="flex-end" gap="sm">
        <ProjectHeader project={website} title={title} />
        <ViewSwitch projectId={id} view="list" />
      </Group>
      <UndoNotice projectId={id} />
      <Group justify="space-between" align="center" gap="sm">
        <SearchBox
          key={resolved ? 'resolved' : 'open'}
          value={query.search}
          // The first letter adds a history entry, later ones replace it: back leaves the search at once.
          onSearch={(search) => show({ page: 1, search }, searching && search.trim() !== '')}
        />
        <Group gap="sm">
          <Text size="sm" c="dimmed" aria-live="polite" data-testid="issue-total">
            {t('issueList.total', { count: list.total_requests })}
          </Text>
          <CsvExportButton projectId={id} resolved={resolved} search={query.search} filters={view.query} />
        </Group>
      </Group>
      <IssueFilterBar state={view} statuses={statuses} members={triage.assignable} labels={triage.labels} />
      <WindowNotice
        filterWindow={list.filterWindow}
        searchWindow={searching ? list.searchWindow : undefined}
      />
      {mayTriage && (
        <BulkBar
          bulk={triage.bulk}
          statuses={issueStatuses}
          members={triage.assignable}
          labels={triage.labels}
          self={triage.self}
          resolved={resolved}
        />
      )}
      {list.requests.length === 0 ? (
        <EmptyList
          resolved={resolved}
          searching={searching}
          filtered={view.filtered}
          pastEnd={list.total_requests > 0}
          onReset={() => setParams(new URLSearchParams())}
          onFirstPage={() => show({ page: 1, search: query.search })}
        />
      ) : (
        <IssueTable
          projectId={id}
          rows={list.requests}
          busy={isValidating}
          people={triage.people}
          labels={triage.labelMap}
          selection={mayTriage ? triage.selection : undefined}
        />
      )}
      {pages > 1 && (
        <Group justify="center">
          <Pagination
            total={pages}
            value={Math.min(query.page, pages)}
            onChange={(page) => {
              show({ page, search: query.search });
              window.scrollTo({ top: 0 });
            }}
            siblings={limits.paginationRadius}
            boundaries={1}
            aria-label={t('issueList.pages')}
            getItemProps={(page) => ({ 'aria-label': t('issueList.page', { page }) })}
            // Mantine's arrows are icons only: named, or a screen reader hears "button" (axe button-name).
            getControlProps={(control) => ({ 'aria-label': t(`issueList.${control}Page`) })}
          />
        </Group>
      )}
    </Stack>
  );
}
