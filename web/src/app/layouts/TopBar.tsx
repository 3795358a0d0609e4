/**
 * Profile top bar (SPEC.md section 2): logo to /, the entries Dashboard, Profile settings and Billing, and
 * the username menu (Profile settings, Billing, Log out). Log out is an action, not a place: it is only in
 * the menu, never a tab beside the places. The menu has one profile entry, named as the screen it opens
 * (issue 19, docs/decisions-web.md "Navigation"). Issue 22: the team switcher beside the logo; Team and
 * Billing show only for the roles that may use them (docs/decisions.md "Role-aware dashboard").
 */
import {
  Avatar,
  Box,
  Burger,
  Button,
  Group,
  Menu,
  Text,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { IconChevronDown, IconCreditCard, IconLogout, IconSettings, IconUsers } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink } from 'react-router-dom';
import { logout } from '../../api/session';
import { displayName, type Profile } from '../../api/types';
import { LanguageSwitch } from '../../components/LanguageSwitch';
import { Logo } from '../../components/Logo';
import { paths } from '../../paths';
import { useCurrentTeam } from '../../teams/data';
import { can, type Right } from '../../teams/model';
import { TeamSwitcher } from '../../teams/TeamSwitcher';

type NavKey = 'dashboard' | 'profileSettings' | 'team' | 'billing';

const entries: readonly { to: string; key: NavKey; end: boolean; right?: Right }[] = [
  { to: paths.profile, key: 'dashboard', end: true },
  { to: paths.profileEdit, key: 'profileSettings', end: false },
  { to: paths.team, key: 'team', end: false, right: 'team' },
  { to: paths.billing, key: 'billing', end: false, right: 'billing' },
];

export function TopBar({
  profile,
  mobileOpened,
  onToggleMobile,
}: {
  profile: Profile;
  mobileOpened: boolean;
  onToggleMobile: () => void;
}) {
  const { t } = useTranslation();
  const name = displayName(profile);
  const { role } = useCurrentTeam();
  const shown = entries.filter((entry) => !entry.right || can(role, entry.right));
  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap">
      <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
        <Burger
          opened={mobileOpened}
          onClick={onToggleMobile}
          hiddenFrom="sm"
          size="sm"
          aria-label={t('nav.openMenu')}
          style={{ flexShrink: 0 }}
        />
        {/* Not on phones: the team switcher needs the width at 390 px (issue 22); Dashboard is in the drawer. */}
        <Box visibleFrom="sm" display="flex" style={{ flexShrink: 0 }}>
          <Link to="/" aria-label={t('app.homeLink')} style={{ textDecoration: 'none', display: 'flex' }}>
            <Logo size={30} />
          </Link>
        </Box>
        <TeamSwitcher />
        <Group component="nav" aria-label={t('nav.mainNavigation')} gap={4} ml="lg" visibleFrom="md">
          {shown.map((entry) => (
            <NavLink key={entry.to} to={entry.to} end={entry.end} style={{ textDecoration: 'none' }}>
              {({ isActive }) => (
                <Button
                  component="span"
                  variant={isActive ? 'light' : 'subtle'}
                  color={isActive ? 'brand' : 'gray'}
                  size="sm"
                >
                  {t(`nav.${entry.key}`)}
                </Button>
              )}
            </NavLink>
          ))}
        </Group>
      </Group>

      <Group gap="xs" wrap="nowrap" style={{ flexShrink: 0 }}>
        <LanguageSwitch />
        <Menu position="bottom-end" width={220} shadow="md" withinPortal>
          <Menu.Target>
            {/*
              Named by its content, so the name holds the visible user name (WCAG 2.5.3 Label in Name): an
              aria-label replaced it. The initial is decoration; on phones, where the name is hidden, the
              button is "Account menu".
            */}
            <UnstyledButton style={{ borderRadius: 999, padding: '4px 8px 4px 4px' }}>
              <Group gap={8} wrap="nowrap">
                <Avatar size={32} radius="xl" color="brand" variant="filled" aria-hidden>
                  {name.slice(0, 1).toUpperCase()}
                </Avatar>
                <Text size="sm" fw={600} maw={180} truncate visibleFrom="sm">
                  {name}
                </Text>
                <VisuallyHidden>{t('nav.account')}</VisuallyHidden>
                {/* Phones leave the chevron out: the team switcher's name needs the width. */}
                <Box visibleFrom="sm" display="flex">
                  <IconChevronDown size={14} stroke={2} />
                </Box>
              </Group>
            </UnstyledButton>
          </Menu.Target>
          <Menu.Dropdown>
            {/* A long address ends in an ellipsis instead of running out of the menu; the full one is its title. */}
            <Menu.Label
              title={profile.username}
              style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
            >
              {profile.username}
            </Menu.Label>
            <Menu.Item component={Link} to={paths.profileEdit} leftSection={<IconSettings size={16} />}>
              {t('nav.profileSettings')}
            </Menu.Item>
            {can(role, 'team') && (
              <Menu.Item component={Link} to={paths.team} leftSection={<IconUsers size={16} />}>
                {t('nav.team')}
              </Menu.Item>
            )}
            {can(role, 'billing') && (
              <Menu.Item component={Link} to={paths.billing} leftSection={<IconCreditCard size={16} />}>
                {t('nav.billing')}
              </Menu.Item>
            )}
            <Menu.Divider />
            <Menu.Item color="red" leftSection={<IconLogout size={16} />} onClick={() => void logout()}>
              {t('nav.logout')}
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      </Group>
    </Group>
  );
}
