/**
 * Profile area shell and auth guard. The profile load doubles as the session check: any failure (401, or
 * the API being unreachable) sends the user to login, as SPEC.md section 2 asks for failed loads.
 */
import { AppShell } from '@mantine/core';
import { useDisclosure, useLocalStorage, useMediaQuery } from '@mantine/hooks';
import { Suspense } from 'react';
import { Navigate, Outlet } from 'react-router-dom';
import { useProfile } from '../../accounts/data';
import { maybeSignedIn } from '../../api/session';
import { CookieNotice } from '../../components/CookieNotice';
import { PageLoader } from '../../components/PageLoader';
import { useTeams } from '../../teams/data';
import { NotFoundNotice } from '../NotFound';
import { ProjectSidebar } from './ProjectSidebar';
import { TopBar } from './TopBar';

export default function ProfileLayout() {
  // No session hint: straight to login, without a profile request that could only answer 401.
  const hinted = maybeSignedIn();
  const { data: profile } = useProfile(hinted);
  // The caller's teams, loaded beside the profile: the role in the team in use decides what every
  // screen and the navigation offer (issue 22), so nothing renders before it is known.
  const { data: teams } = useTeams(hinted);
  const [collapsed, setCollapsed] = useLocalStorage({
    key: 'snag.sidebar.collapsed',
    defaultValue: true, // SPEC: collapsed by default
    getInitialValueInEffect: false,
  });
  const [mobileOpened, mobile] = useDisclosure(false);
  const desktop = useMediaQuery('(min-width: 48em)', true);

  if (!hinted) return <Navigate to="/login" replace />;
  if (!profile || !teams) return <PageLoader fullHeight />;

  // The mobile drawer always shows labels; the icon rail is a desktop state.
  const rail = collapsed && desktop !== false;
  return (
    <AppShell
      header={{ height: 64 }}
      navbar={{ width: rail ? 76 : 272, breakpoint: 'sm', collapsed: { mobile: !mobileOpened } }}
      padding={{ base: 'md', sm: 'xl' }}
      styles={{ main: { background: 'var(--mantine-color-gray-0)' } }}
    >
      <AppShell.Header>
        <TopBar profile={profile} mobileOpened={mobileOpened} onToggleMobile={mobile.toggle} />
      </AppShell.Header>
      <AppShell.Navbar>
        <ProjectSidebar collapsed={rail} onToggle={() => setCollapsed((c) => !c)} onNavigate={mobile.close} />
      </AppShell.Navbar>
      <AppShell.Main>
        <CookieNotice inset />
        <NotFoundNotice />
        <Suspense fallback={<PageLoader />}>
          <Outlet />
        </Suspense>
      </AppShell.Main>
    </AppShell>
  );
}
