/**
 * List or board: two links above a project's issues, the current one marked. The shared filters
 * (priority, assignee, label) travel with the switch, so the same issues stay in view.
 */
import { Button } from '@mantine/core';
import { IconLayoutKanban, IconList } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router-dom';
import { paths } from '../paths';
import { carriedFilters } from './model';

export function ViewSwitch({ projectId, view }: { projectId: string; view: 'list' | 'board' }) {
  const { t } = useTranslation();
  const { pathname, search } = useLocation();
  const query = carriedFilters(search);
  const views = [
    { name: 'list', to: paths.site(projectId), Icon: IconList },
    { name: 'board', to: paths.board(projectId), Icon: IconLayoutKanban },
  ] as const;
  return (
    <Button.Group aria-label={t('board.views')}>
      {views.map(({ name, to, Icon }) => (
        <Button
          key={name}
          component={Link}
          to={`${to}${query}`}
          size="xs"
          variant={view === name ? 'filled' : 'default'}
          // On the resolved list the list button is shown chosen but is not this page (it opens the open list).
          aria-current={pathname === to ? 'page' : undefined}
          leftSection={<Icon size={14} aria-hidden />}
        >
          {t(`board.view.${name}`)}
        </Button>
      ))}
    </Button.Group>
  );
}
