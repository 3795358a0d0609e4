/**
 * Project sidebar (SPEC.md section 2): a project selector and the project's sections. Sub-entries show
 * only while their section is open. Collapsed, it is an icon rail with tooltips. Issue 22: integrations,
 * widget and configuration show only for a role that may change them (OWNER, ADMIN).
 */
import { ActionIcon, Box, NavLink, ScrollArea, Select, Stack, Text, Tooltip } from '@mantine/core';
import {
  IconAdjustments,
  IconArchive,
  IconChartBar,
  IconLayoutDashboard,
  IconLayoutSidebarLeftCollapse,
  IconLayoutSidebarLeftExpand,
  IconMessageReport,
  IconPalette,
  IconPlugConnected,
} from '@tabler/icons-react';
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import type { Catalogue } from '../../i18n/en';
import {
  type ConfigurationSection,
  configurationSections,
  integrationNames,
  paths,
  projectIdFromPath,
  type SidebarSection,
  sidebarSection,
} from '../../paths';
import { useSidebarProjects } from '../../projects/data';
import { roleOf } from '../../projects/role';
import { useCurrentTeam } from '../../teams/data';
import { can, type Right } from '../../teams/model';

interface Entry {
  section: SidebarSection;
  icon: ComponentType<{ size?: number; stroke?: number }>;
  to: (id: string) => string;
  children?: { label: string; to: string }[];
  /** The right the section's screen needs; none: every role (the review screens). */
  right?: Right;
}

type SidebarKey = keyof Catalogue['sidebar'];

export function ProjectSidebar({
  collapsed,
  onToggle,
  onNavigate,
}: {
  collapsed: boolean;
  onToggle: () => void;
  /** Called after a navigation, so the mobile drawer can close. */
  onNavigate: () => void;
}) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const { data } = useSidebarProjects();
  const projects = data?.websites ?? [];
  const currentId = projectIdFromPath(pathname) ?? projects[0]?.uuid ?? null;
  const open = sidebarSection(pathname);
  const { role: teamRole } = useCurrentTeam();
  const role = roleOf(projects.find((p) => p.uuid === currentId)) ?? teamRole;

  const entries: Entry[] = [
    { section: 'feedback', icon: IconMessageReport, to: paths.site },
    { section: 'archive', icon: IconArchive, to: paths.resolved },
    { section: 'insights', icon: IconChartBar, to: paths.insights },
    {
      section: 'integrations',
      right: 'integrations',
      icon: IconPlugConnected,
      to: (id) => paths.integrations(id),
      children: currentId
        ? integrationNames.map((name) => ({
            label: t(`integrations.${name}`),
            to: paths.integrations(currentId, name),
          }))
        : [],
    },
    { section: 'widget', right: 'settings', icon: IconPalette, to: paths.widget },
    {
      section: 'configuration',
      right: 'settings',
      icon: IconAdjustments,
      to: (id) => paths.configuration(id),
      children: currentId
        ? configurationSections.map((name) => ({
            label: t(`configuration.${name}`),
            to: paths.configuration(currentId, name),
          }))
        : [],
    },
  ];

  function switchProject(id: string | null) {
    if (!id) return;
    // Stay in the same section (and configuration sub-section) of the newly chosen project.
    const sub = pathname.split('/')[4] as ConfigurationSection | undefined;
    const entry = entries.find((e) => e.section === open);
    navigate(
      open === 'configuration' && sub && configurationSections.includes(sub)
        ? paths.configuration(id, sub)
        : entry
          ? entry.to(id)
          : paths.site(id),
    );
    onNavigate();
  }

  const label = (key: SidebarKey) => t(`sidebar.${key}`);

  const item = (
    key: SidebarKey,
    Icon: Entry['icon'],
    to: string,
    active: boolean,
    children?: Entry['children'],
  ) =>
    collapsed ? (
      <Tooltip key={key} label={label(key)} position="right" withArrow>
        <ActionIcon
          component={Link}
          to={to}
          size={44}
          radius="md"
          variant={active ? 'light' : 'subtle'}
          color={active ? 'brand' : 'gray'}
          aria-label={label(key)}
          aria-current={active ? 'page' : undefined}
          onClick={onNavigate}
        >
          <Icon size={22} stroke={1.7} />
        </ActionIcon>
      </Tooltip>
    ) : (
      <NavLink
        key={key}
        component={Link}
        to={to}
        label={label(key)}
        leftSection={<Icon size={20} stroke={1.7} />}
        active={active && !children?.length}
        opened={active && Boolean(children?.length)}
        childrenOffset={32}
        styles={{ root: { borderRadius: 8 }, label: { fontWeight: 550 } }}
        onClick={children?.length ? undefined : onNavigate}
      >
        {active && children?.length
          ? children.map((child) => (
              <NavLink
                key={child.to}
                component={Link}
                to={child.to}
                label={child.label}
                active={pathname === child.to}
                styles={{ root: { borderRadius: 8 } }}
                onClick={onNavigate}
              />
            ))
          : undefined}
      </NavLink>
    );

  return (
    <Stack h="100%" gap={0} component="nav" aria-label={t('sidebar.label')}>
      {!collapsed && (
        <Box p="md" pb="xs">
          {projects.length > 0 ? (
            <Select
              label={label('project')}
              placeholder={label('selectProject')}
              data={projects.map((p) => ({ value: p.uuid, label: p.name }))}
              value={currentId}
              onChange={switchProject}
              allowDeselect={false}
              checkIconPosition="right"
              comboboxProps={{ withinPortal: true }}
              // A name may be one 100-letter word: options wrap inside the list instead of being cut off, and
              // the field itself ends the name it cannot show with "…" (the whole name is its title).
              styles={{ option: { overflowWrap: 'anywhere' }, input: { textOverflow: 'ellipsis' } }}
              title={projects.find((p) => p.uuid === currentId)?.name}
            />
          ) : (
            <Text size="sm" c="dimmed">
              {label('noProjects')}
            </Text>
          )}
        </Box>
      )}
      <ScrollArea style={{ flex: 1 }} px={collapsed ? 0 : 'sm'} py="xs">
        <Stack gap={collapsed ? 6 : 2} align={collapsed ? 'center' : 'stretch'}>
          {item('dashboard', IconLayoutDashboard, paths.profile, open === 'dashboard')}
          {currentId &&
            entries
              .filter((entry) => !entry.right || can(role, entry.right))
              .map((entry) =>
                item(entry.section, entry.icon, entry.to(currentId), open === entry.section, entry.children),
              )}
        </Stack>
      </ScrollArea>
      <Box p="sm" visibleFrom="sm" style={{ borderTop: '1px solid var(--mantine-color-gray-2)' }}>
        <Tooltip label={collapsed ? label('expand') : label('collapse')} position="right" withArrow>
          <ActionIcon
            variant="subtle"
            color="gray"
            size={40}
            onClick={onToggle}
            aria-label={collapsed ? label('expand') : label('collapse')}
            aria-expanded={!collapsed}
            mx={collapsed ? 'auto' : undefined}
            display="flex"
          >
            {collapsed ? (
              <IconLayoutSidebarLeftExpand size={22} stroke={1.6} />
            ) : (
              <IconLayoutSidebarLeftCollapse size={22} stroke={1.6} />
            )}
          </ActionIcon>
        </Tooltip>
      </Box>
    </Stack>
  );
}
