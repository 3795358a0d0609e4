/**
 * Insights' data (issue 37): a project's and a team's figures for a period. The only module of insights/
 * that calls the API; it writes nothing, so it leaves no cached read stale.
 */
import type { InsightsPeriod } from '#contracts/insights';
import type { Answer } from '../api/endpoints';
import { useEndpoint } from '../api/swr';
import { toDashboardIfMissing } from '../projects/data';

export type Insights = Answer<'issues.insights'>;

/** A project's figures; a project the caller may not read goes back to the dashboard. */
export function useProjectInsights(id: string | undefined, period: InsightsPeriod) {
  return useEndpoint('issues.insights', id ? { params: { id }, query: { period } } : null, {
    redirect: toDashboardIfMissing,
    keepPreviousData: true,
  });
}

/** The team's figures, summed over the projects the caller may read. */
export function useTeamInsights(teamId: string | undefined, period: InsightsPeriod) {
  return useEndpoint('issues.teamInsights', teamId ? { params: { teamId }, query: { period } } : null, {
    redirect: toDashboardIfMissing,
    keepPreviousData: true,
  });
}
