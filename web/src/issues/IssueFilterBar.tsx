/**
 * The filter bar of an issue view (issue 23): status, priority, assignee, label and sort, each a labelled
 * select whose choice goes to the address (`useListFilters`), so the view is a link. "Any" clears a filter.
 * The list and the board show the same bar; `statuses` are the ones the view can hold (the New list only
 * the open ones), `sort` false hides the sort (the board orders each column itself).
 */
import { Button, Select, SimpleGrid, Stack, Switch } from '@mantine/core';
import { IconFilterOff } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { type IssueStatus, issueListSorts, type Label, listSorts, priorities } from '#contracts/triage';
import type { FilterChange, FilterKey, ListFiltersState } from './filters';
import { type Person, personName } from './triage-model';

const ANY = '';

export function IssueFilterBar({
  state,
  statuses,
  members,
  labels,
  sort = true,
}: {
  state: ListFiltersState;
  statuses: readonly IssueStatus[];
  members: readonly Person[];
  labels: readonly Label[];
  sort?: boolean;
}) {
  const { t } = useTranslation();
  const { filters, filtered, setFilters, clearFilters } = state;
  const any = { value: ANY, label: t('triage.any') };
  const choose = (key: Exclude<FilterKey, 'sort' | 'collapse'>) => (value: string | null) =>
    setFilters({ [key]: value === ANY || value === null ? undefined : value } as FilterChange);
  const fields = [
    // No statuses (the board, whose columns are the statuses): no status filter.
    ...(statuses.length === 0
      ? []
      : [
          {
            key: 'status' as const,
            data: [any, ...statuses.map((s) => ({ value: s, label: t(`triage.status.${s}`) }))],
          },
        ]),
    {
      key: 'priority' as const,
      data: [any, ...[...priorities].reverse().map((p) => ({ value: p, label: t(`triage.priority.${p}`) }))],
    },
    {
      key: 'assignee' as const,
      data: [
        any,
        { value: 'me', label: t('triage.me') },
        { value: 'none', label: t('triage.unassigned') },
        ...members.map((m) => ({ value: m.userId, label: personName(m) })),
      ],
    },
    { key: 'label' as const, data: [any, ...labels.map((l) => ({ value: l.id, label: l.name }))] },
  ];
  return (
    <Stack gap="xs" role="group" aria-label={t('triage.filters')}>
      <SimpleGrid cols={{ base: 2, sm: fields.length + (sort ? 1 : 0) }} spacing="sm" verticalSpacing="xs">
        {fields.map(({ key, data }) => {
          const value = filters[key] ?? ANY;
          // A filter the options do not name (a member who left, a label deleted) stays visible as its id.
          const known = data.some((d) => d.value === value);
          return (
            <Select
              key={key}
              label={t(`triage.${key}Label`)}
              data={known ? data : [...data, { value, label: value }]}
              value={value}
              onChange={choose(key)}
              allowDeselect={false}
              searchable={key === 'assignee' || key === 'label'}
              size="sm"
              data-testid={`filter-${key}`}
            />
          );
        })}
        {sort && (
          <Select
            label={t('triage.sortLabel')}
            // "Most reports" (issue 37) in the list only: the board orders each column itself.
            data={(statuses.length > 0 ? issueListSorts : listSorts).map((s) => ({
              value: s,
              label: t(`triage.sort.${s}`),
            }))}
            value={filters.sort}
            onChange={(value) => setFilters({ sort: (value ?? undefined) as FilterChange['sort'] })}
            allowDeselect={false}
            size="sm"
            data-testid="filter-sort"
          />
        )}
      </SimpleGrid>
      {sort && statuses.length > 0 && (
        <Switch
          label={t('triage.collapse')}
          checked={filters.collapse === '1'}
          onChange={(event) => setFilters({ collapse: event.currentTarget.checked ? '1' : undefined })}
          size="sm"
          data-testid="filter-collapse"
        />
      )}
      {filtered && (
        <Button
          variant="subtle"
          size="compact-sm"
          leftSection={<IconFilterOff size={14} aria-hidden />}
          onClick={clearFilters}
          style={{ alignSelf: 'flex-start' }}
        >
          {t('triage.clearFilters')}
        </Button>
      )}
    </Stack>
  );
}
