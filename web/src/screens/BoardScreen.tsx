/**
 * /profile/site/{id}/board (issue 23): the project's issues in one column per status, each with its count
 * and a page of cards ("Show more" for the next). Cards move by drag and drop, by their "Move to…" menu or
 * by Alt+Arrow keys; each result is announced. The list's filters (priority, assignee, label) apply to
 * every column and live in the address, so a link shares the board as it is.
 */
import { Group, Stack, Text, VisuallyHidden } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useParams } from 'react-router-dom';
import { BoardColumns } from '../board/BoardColumns';
import { boardWindow } from '../board/model';
import { useBoard } from '../board/useBoard';
import { ViewSwitch } from '../board/ViewSwitch';
import { PageLoader } from '../components/PageLoader';
import { useDocumentTitle } from '../hooks/title';
import { useTeamPeople } from '../issues/data';
import { useListFilters } from '../issues/filters';
import { IssueFilterBar } from '../issues/IssueFilterBar';
import { useLabels } from '../issues/triage-hooks';
import { WindowNotice } from '../issues/WindowNotice';
import { useProject } from '../projects/data';
import { ProjectHeader } from '../projects/ProjectHeader';
import { useProjectRole } from '../projects/role';
import { useCurrentTeam } from '../teams/data';
import { can } from '../teams/model';

export default function BoardScreen() {
  const { t } = useTranslation();
  useDocumentTitle(t('screens.board'));
  const { id = '' } = useParams();
  const location = useLocation();
  const { data: project } = useProject(id);
  const role = useProjectRole();
  const triage = can(role, 'triage');
  const filterState = useListFilters({ resetKeys: [] });
  const { priority, assignee, label } = filterState.filters;
  // Status is the columns and each column orders itself (newest first): only these three apply.
  const filters = useMemo(() => ({ priority, assignee, label }), [priority, assignee, label]);
  const state = useBoard(id, filters);
  const { team } = useCurrentTeam();
  const { people, assignable } = useTeamPeople(team?.id);
  const labels = useLabels(id);
  const labelMap = useMemo(() => new Map(labels.map((l) => [l.id, l])), [labels]);

  if (!project || !id) return <PageLoader />;
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" gap="sm">
        <ProjectHeader project={project.website} title={t('screens.board')} />
        <ViewSwitch projectId={id} view="board" />
      </Group>
      <IssueFilterBar state={filterState} statuses={[]} members={assignable} labels={labels} sort={false} />
      <WindowNotice filterWindow={boardWindow(state.board)} />
      {triage && (
        <Text size="sm" c="dimmed">
          {t('board.help')}
        </Text>
      )}
      <BoardColumns
        state={state}
        context={{
          projectId: id,
          from: `${location.pathname}${location.search}`,
          members: people,
          labels: labelMap,
          triage,
        }}
      />
      <VisuallyHidden role="status" aria-live="polite" data-testid="board-announcer">
        {state.announcement}
      </VisuallyHidden>
    </Stack>
  );
}
