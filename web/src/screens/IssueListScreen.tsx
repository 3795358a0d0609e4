/**
 * /profile/site/{id} and /profile/resolved/{id} (SPEC.md section 2, Issue list): the project's new or
 * resolved issues, 10 a page, newest first. Page and search live in the address, so the back button and
 * a shared link show the same list; a row opens the issue and remembers this list for "back".
 */
import {
  Anchor,
  Badge,
  Button,
  CloseButton,
  Group,
  Pagination,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
  ThemeIcon,
  Title,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedCallback, useMediaQuery } from '@mantine/hooks';
import { IconArchive, IconInbox, IconPaperclip, IconPhoto, IconSearch } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { limits } from '#contracts/limits';
import type { IssueRow } from '#contracts/review';
import { paths } from '../app/paths';
import { PageLoader } from '../components/PageLoader';
import { useDocumentTitle } from '../hooks/useDocumentTitle';
import { displayLocale } from '../i18n';
import { useIssueList } from '../issues/hooks';
import {
  type FromList,
  formatDate,
  type ListQuery,
  listQueryOf,
  listSearchParams,
  pageCount,
  previewAfterTitle,
} from '../issues/model';
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
      <ProjectHeader project={project.website} title={title} />
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

function SearchBox({ value, onSearch }: { value: string; onSearch: (search: string) => void }) {
  const { t } = useTranslation();
  const [text, setText] = useState(value);
  // Back and forward change the address under the box: follow it.
  useEffect(() => setText(value), [value]);
  const commit = useDebouncedCallback((next: string) => {
    if (next.trim() !== value.trim()) onSearch(next);
  }, 350);
  return (
    <TextInput
      w={{ base: '100%', xs: 360 }}
      value={text}
      maxLength={limits.issueSearchMax}
      aria-label={t('issueList.searchLabel')}
      placeholder={t('issueList.searchPlaceholder')}
      leftSection={<IconSearch size={16} />}
      rightSection={
        text ? (
          <CloseButton
            size="sm"
            aria-label={t('issueList.clearSearch')}
            onClick={() => {
              setText('');
              onSearch('');
            }}
          />
        ) : null
      }
      onChange={(event) => {
        setText(event.currentTarget.value);
        commit(event.currentTarget.value);
      }}
      onKeyDown={(event) => {
        if (event.key === 'Enter') onSearch(text);
      }}
    />
  );
}

function EmptyList({
  resolved,
  searching,
  pastEnd,
  onReset,
  onFirstPage,
}: {
  resolved: boolean;
  searching: boolean;
  pastEnd: boolean;
  onReset: () => void;
  onFirstPage: () => void;
}) {
  const { t } = useTranslation();
  const kind = searching ? 'Search' : resolved ? 'Resolved' : 'Open';
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
          {pastEnd && !searching ? t('issueList.pastEnd') : t(`issueList.empty${kind}Hint`)}
        </Text>
        {searching && (
          <Button variant="light" onClick={onReset}>
            {t('issueList.clearSearch')}
          </Button>
        )}
        {pastEnd && !searching && (
          <Button variant="light" onClick={onFirstPage}>
            {t('issueList.firstPage')}
          </Button>
        )}
      </Stack>
    </Paper>
  );
}

function Counts({ row }: { row: IssueRow }) {
  const { t } = useTranslation();
  const counts = [
    { count: row.total_files, label: t('issueList.files', { count: row.total_files }), Icon: IconPaperclip },
    {
      count: row.total_screenshots,
      label: t('issueList.screenshots', { count: row.total_screenshots }),
      Icon: IconPhoto,
    },
  ];
  return (
    <Group gap={6} wrap="wrap">
      {counts.map(({ count, label, Icon }) => (
        <Tooltip key={label} label={label} withArrow>
          <Badge
            variant="light"
            color={count ? 'brand' : 'gray'}
            leftSection={<Icon size={12} />}
            aria-label={label}
          >
            {count}
          </Badge>
        </Tooltip>
      ))}
    </Group>
  );
}

function IssueTable({ projectId, rows, busy }: { projectId: string; rows: IssueRow[]; busy: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const state: FromList = { from: `${location.pathname}${location.search}` };
  const locale = displayLocale();
  const wide = useMediaQuery('(min-width: 48em)', true);
  return (
    <Paper withBorder radius="lg" style={{ overflow: 'hidden', opacity: busy ? 0.75 : 1 }}>
      <Table highlightOnHover verticalSpacing="sm" horizontalSpacing={wide ? 'md' : 'xs'} layout="fixed">
        <Table.Thead bg="var(--mantine-color-gray-0)">
          <Table.Tr>
            <Table.Th>{t('issueList.description')}</Table.Th>
            <Table.Th w={200} visibleFrom="sm">
              {t('issueList.created')}
            </Table.Th>
            <Table.Th w={{ base: 72, sm: 140 }}>
              {/* On phones the column is an icon wide; its name stays for screen readers. */}
              {wide ? (
                t('issueList.attachments')
              ) : (
                <Tooltip label={t('issueList.attachments')} withArrow>
                  <Group gap={0} wrap="nowrap">
                    <IconPaperclip size={16} aria-hidden />
                    <VisuallyHidden>{t('issueList.attachments')}</VisuallyHidden>
                  </Group>
                </Tooltip>
              )}
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => {
            const to = paths.ticket(projectId, String(row.number));
            const created = formatDate(row.date_created.date, locale);
            const preview = previewAfterTitle(row.title, row.preview);
            return (
              <Table.Tr
                key={row.number}
                onClick={() => navigate(to, { state })}
                style={{ cursor: 'pointer' }}
                data-testid="issue-row"
              >
                <Table.Td>
                  <Stack gap={2} style={{ minWidth: 0 }}>
                    <Group gap={8} wrap="nowrap" style={{ minWidth: 0 }}>
                      <Text size="sm" c="dimmed" style={{ flex: 'none' }}>
                        #{row.number}
                      </Text>
                      <Anchor
                        component={Link}
                        to={to}
                        state={state}
                        fw={600}
                        c="var(--mantine-color-text)"
                        onClick={(event) => event.stopPropagation()}
                        truncate
                      >
                        {row.title}
                      </Anchor>
                    </Group>
                    {preview && (
                      <Text size="sm" c="dimmed" lineClamp={2} style={{ overflowWrap: 'anywhere' }}>
                        {preview}
                      </Text>
                    )}
                    <Text size="xs" c="dimmed" hiddenFrom="sm">
                      {created}
                    </Text>
                  </Stack>
                </Table.Td>
                <Table.Td visibleFrom="sm">
                  <Text size="sm">{created}</Text>
                </Table.Td>
                <Table.Td>
                  <Counts row={row} />
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Paper>
  );
}
