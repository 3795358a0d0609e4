/**
 * /profile/site/{id}/board (issue 23): the project's issues in one column per status, each with its count
 * and a page of cards ("Show more" for the next). Cards move by drag and drop, by their "Move to…" menu or
 * by Alt+Arrow keys; each result is announced. The list's filters apply to every column and live in the
 * address, so a link shares the board as it is.
 */
import { Group, Stack, Text, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useLocation, useParams } from 'react-router-dom';
import { BoardColumns } from '../board/BoardColumns';
import { useLabelMap, useMemberNames } from '../board/hooks';
import type { BoardFilters } from '../board/model';
import { useBoard } from '../board/useBoard';
import { ViewSwitch } from '../board/ViewSwitch';
import { PageLoader } from '../components/PageLoader';
import { useDocumentTitle } from '../hooks/title';
import { useProject } from '../projects/hooks';
import { ProjectHeader } from '../projects/ProjectHeader';
import { useProjectRole } from '../projects/role';
import { can } from '../teams/model';

const noFilters: BoardFilters = {};

export default function BoardScreen() {
  const { t } = useTranslation();
  useDocumentTitle(t('screens.board'));
  const { id = '' } = useParams();
  const location = useLocation();
  const { data: project } = useProject(id);
  const role = useProjectRole();
  const state = useBoard(id, noFilters);
  const members = useMemberNames();
  const labels = useLabelMap(id);

  if (!project || !id) return <PageLoader />;
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" gap="sm">
        <ProjectHeader project={project.website} title={t('screens.board')} />
        <ViewSwitch projectId={id} view="board" />
      </Group>
      {can(role, 'triage') && (
        <Text size="sm" c="dimmed" id="board-help">
          {t('board.help')}
        </Text>
      )}
      <BoardColumns
        state={state}
        context={{
          projectId: id,
          from: `${location.pathname}${location.search}`,
          members,
          labels,
          triage: can(role, 'triage'),
        }}
      />
      <VisuallyHidden role="status" aria-live="polite" data-testid="board-announcer">
        {state.announcement}
      </VisuallyHidden>
    </Stack>
  );
}
