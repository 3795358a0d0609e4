import { describe, expect, it } from 'vitest';
import {
  changeFilters,
  filterQuery,
  filtersOf,
  hasFilters,
  noFilters,
  withFilters,
} from '../../../web/src/issues/filters';

const uid = '0b5a0c5e-6a43-4a5e-9a43-7c1f00000001';

describe('the triage filters in the address', () => {
  it('reads every filter and the sort the API takes', () => {
    expect(
      filtersOf(
        new URLSearchParams(`status=in_review&priority=urgent&assignee=${uid}&label=abcd1234&sort=updated`),
      ),
    ).toEqual({ status: 'in_review', priority: 'urgent', assignee: uid, label: 'abcd1234', sort: 'updated' });
    expect(filtersOf(new URLSearchParams('assignee=me')).assignee).toBe('me');
    expect(filtersOf(new URLSearchParams('assignee=none')).assignee).toBe('none');
  });

  it('reads what the API would refuse as no filter, and no sort as newest', () => {
    expect(filtersOf(new URLSearchParams(''))).toEqual(noFilters);
    expect(
      filtersOf(new URLSearchParams('status=open&priority=URGENT&assignee=bob&label=AB&sort=random&page=2')),
    ).toEqual({ sort: 'newest' });
    expect(filtersOf(new URLSearchParams('status=&label=x%20y'))).toEqual({ sort: 'newest' });
  });

  it('writes only what differs from the plain view, keeps the search and starts at page 1', () => {
    const params = new URLSearchParams('search=cart&page=3&status=new');
    const next = withFilters(params, { sort: 'priority', priority: 'high' });
    expect(next.toString()).toBe('search=cart&priority=high&sort=priority');
    expect(withFilters(params, noFilters).toString()).toBe('search=cart');
    // The board keeps its own parameters when told which ones a new view resets.
    expect(withFilters(new URLSearchParams('col=2'), noFilters, []).toString()).toBe('col=2');
  });

  it('round-trips: a copied link shows the same view', () => {
    const view = { status: 'closed', assignee: 'none', label: 'zz99yy88', sort: 'oldest' } as const;
    expect(filtersOf(withFilters(new URLSearchParams(), view))).toEqual(view);
  });

  it('asks the API with the set filters only', () => {
    expect(filterQuery(noFilters)).toEqual({});
    expect(filterQuery({ sort: 'newest', status: 'new' })).toEqual({ status: 'new' });
    expect(filterQuery({ sort: 'updated', assignee: 'me' })).toEqual({ assignee: 'me', sort: 'updated' });
  });

  it('changes and clears one filter at a time', () => {
    const a = changeFilters(noFilters, { status: 'new', label: 'abcd1234' });
    expect(a).toEqual({ sort: 'newest', status: 'new', label: 'abcd1234' });
    expect(changeFilters(a, { status: undefined })).toEqual({ sort: 'newest', label: 'abcd1234' });
    expect(changeFilters(a, { sort: undefined }).sort).toBe('newest');
    expect(hasFilters(a)).toBe(true);
    expect(hasFilters({ sort: 'priority' })).toBe(false);
  });
});
