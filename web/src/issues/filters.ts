/**
 * The triage filters and sort of an issue view in the address (issue 23 "saved views"): status, priority,
 * assignee, label and sort are query parameters, so a copied link shows the same view and back/forward
 * step through the views. One hook for every view that filters issues: the list (IssueListScreen) and the
 * board (BoardScreen) read and change them through `useListFilters`.
 *
 * The names and values are the API's own (`listFilterShape` in contracts/triage.ts), so the address and the
 * list call say the same thing. A value the API would refuse (a misspelt status, a cut-off id) reads as no
 * filter: an edited or stale link still opens a view, the plain one for that part, instead of an error.
 */
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import {
  type IssueListSort,
  type IssueStatus,
  listFilterShape,
  listQuerySchema,
  type Priority,
} from '#contracts/triage';

/** The filter parameters, in the order they are written to the address. */
export const filterKeys = ['status', 'priority', 'assignee', 'label', 'sort', 'collapse'] as const;
export type FilterKey = (typeof filterKeys)[number];
/** The filters as query values (`filterQuery`): what the address and the API calls carry. */
export type FilterQuery = Partial<Record<FilterKey, string>>;

/** Who an issue is assigned to, as the API takes it: a member's user id, the caller, or nobody. */
export type AssigneeFilter = string | 'me' | 'none';

export interface ListFilters {
  status?: IssueStatus;
  priority?: Priority;
  assignee?: AssigneeFilter;
  /** A label id of the project. */
  label?: string;
  /** Always set: `newest` when the address names none. */
  sort: IssueListSort;
  /** Issue 37: duplicates left out of the list, counted on their primary's row (a view option, no filter). */
  collapse?: '1';
}

/** A change of the view: a key set to undefined clears that filter (or, for sort, goes back to newest). */
export type FilterChange = { [K in FilterKey]?: ListFilters[K] | undefined };

export const defaultSort: IssueListSort = 'newest';
export const noFilters: ListFilters = { sort: defaultSort };

/** The view an address asks for; anything the API would refuse is left out. */
export function filtersOf(params: URLSearchParams): ListFilters {
  const read = <T>(key: FilterKey, schema: { safeParse: (v: unknown) => { success: boolean; data?: T } }) => {
    const raw = params.get(key);
    if (raw === null || raw === '') return undefined;
    const parsed = schema.safeParse(raw);
    return parsed.success ? parsed.data : undefined;
  };
  const filters: ListFilters = { sort: read('sort', listQuerySchema.shape.sort) ?? defaultSort };
  const collapse = read('collapse', listQuerySchema.shape.collapse);
  if (collapse === '1' || collapse === 'true') filters.collapse = '1';
  const status = read('status', listFilterShape.status);
  const priority = read('priority', listFilterShape.priority);
  const assignee = read('assignee', listFilterShape.assignee);
  const label = read('label', listFilterShape.label);
  if (status) filters.status = status;
  if (priority) filters.priority = priority;
  if (assignee) filters.assignee = assignee;
  if (label) filters.label = label;
  return filters;
}

/**
 * The filters as query values, defaults left out (the plain view has a plain address, and equal views
 * share one cache key): for the address and for the API calls alike (list, board columns, CSV).
 */
export function filterQuery(filters: ListFilters): FilterQuery {
  const query: FilterQuery = {};
  for (const key of filterKeys) {
    const value = filters[key];
    if (value !== undefined && !(key === 'sort' && value === defaultSort)) query[key] = value;
  }
  return query;
}

/**
 * `params` with the filter parameters replaced by `filters` (other parameters, e.g. the search, kept) and
 * `drop` removed: a new view starts at its first page.
 */
export function withFilters(
  params: URLSearchParams,
  filters: ListFilters,
  drop: readonly string[] = ['page'],
): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const key of [...filterKeys, ...drop]) next.delete(key);
  for (const [key, value] of Object.entries(filterQuery(filters))) next.set(key, value);
  return next;
}

/** `filters` changed by `change` (undefined clears a key; a cleared sort is newest). */
export function changeFilters(filters: ListFilters, change: FilterChange): ListFilters {
  const next: ListFilters = { ...filters };
  for (const key of filterKeys) {
    if (!(key in change)) continue;
    const value = change[key];
    if (value === undefined) delete next[key];
    else (next as Record<FilterKey, unknown>)[key] = value;
  }
  next.sort ??= defaultSort;
  return next;
}

/** Whether any filter is set (the sort aside): the "clear filters" action and the empty list's wording. */
export const hasFilters = (filters: ListFilters): boolean =>
  filters.status !== undefined ||
  filters.priority !== undefined ||
  filters.assignee !== undefined ||
  filters.label !== undefined;

export interface ListFiltersState {
  filters: ListFilters;
  /** Any filter set (sort aside). */
  filtered: boolean;
  /** The filters as query values for API calls (`filterQuery`). */
  query: FilterQuery;
  /** A new history entry with the change applied (so back returns to the previous view). */
  setFilters: (change: FilterChange) => void;
  /** Every filter cleared; the sort kept. */
  clearFilters: () => void;
}

/**
 * The view's filters from the address, and changing them. A change pushes a history entry and removes
 * `resetKeys` (by default `page`: a new view starts on its first page); other parameters stay.
 */
export function useListFilters({
  resetKeys = ['page'],
}: {
  resetKeys?: readonly string[];
} = {}): ListFiltersState {
  const [params, setParams] = useSearchParams();
  const key = filterKeys.map((k) => params.get(k) ?? '').join('\n');
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` is the filter part of `params`; other parameters (page, search) must not make a new object.
  const filters = useMemo(() => filtersOf(params), [key]);
  const resetKey = resetKeys.join('\n');
  const setFilters = useCallback(
    (change: FilterChange) =>
      setParams((current) =>
        withFilters(current, changeFilters(filtersOf(current), change), resetKey.split('\n')),
      ),
    [setParams, resetKey],
  );
  const clearFilters = useCallback(
    () => setFilters({ status: undefined, priority: undefined, assignee: undefined, label: undefined }),
    [setFilters],
  );
  const query = useMemo(() => filterQuery(filters), [filters]);
  return { filters, filtered: hasFilters(filters), query, setFilters, clearFilters };
}
