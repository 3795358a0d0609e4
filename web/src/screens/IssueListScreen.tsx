/**
 * /profile/site/{id} and /profile/resolved/{id} (SPEC.md section 2, Issue list): the project's new or
 * resolved issues, 10 a page, newest first. Page and search live in the address, so the back button and
 * a shared link show the same list; a row opens the issue and remembers this list for "back".
 */
import { Group, Pagination, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router-dom';
import { limits } from '#contracts/limits';
import { ViewSwitch } from '../board/ViewSwitch';
import { PageLoader } from '../components/PageLoader';
import { useDocumentTitle } from '../hooks/title';
import { EmptyList } from '../issues/EmptyList';
import { useIssueList } from '../issues/hooks';
import { IssueTable } from '../issues/IssueTable';
import { type ListQuery, listQueryOf, listSearchParams, pageCount } from '../issues/model';
import { SearchBox } from '../issues/SearchBox';
import { UndoNotice } from '../issues/UndoNotice';
import { useProject } from '../projects/hooks';
import { ProjectHeader } from '../projects/ProjectHeader';

export default function IssueListScreen({ resolved }: { resolved: boolean }) {
  const { t } = useTranslation();
  const title = resolved ? t('screens.resolved') : t('screens.issues');
  useDocumentTitle(title);
  const { id } = useParams();
  const [params, setParams] = useSearchParams();
  const query = listQueryOf(params);
  const { data: project } = useProject(id);
  const { data: list, isValidating } = useIssueList(id, resolved, query);

  function show(next: ListQuery, replace = false) {
    setParams(listSearchParams(next), { replace });
  }

  if (!project || !list || !id) return <PageLoader />;
  const pages = pageCount(list.total_requests);
  const searching = query.search.trim() !== '';
  return (
    <Stack gap="lg" maw={1080} mx="auto">
      <Group justify="space-between" align="flex-end" gap="sm">
        <ProjectHeader project={project.website} title={title} />
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
        <Text size="sm" c="dimmed" aria-live="polite">
          {t('issueList.total', { count: list.total_requests })}
        </Text>
      </Group>
      {list.searchWindow !== undefined && searching && (
        <Text size="sm" c="dimmed">
          {t('issueList.searchWindow', { count: list.searchWindow })}
        </Text>
      )}
      {list.requests.length === 0 ? (
        <EmptyList
          resolved={resolved}
          searching={searching}
          pastEnd={list.total_requests > 0}
          onReset={() => show({ page: 1, search: '' })}
          onFirstPage={() => show({ page: 1, search: query.search })}
        />
      ) : (
        <IssueTable projectId={id} rows={list.requests} busy={isValidating} />
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
          />
        </Group>
      )}
    </Stack>
  );
}
