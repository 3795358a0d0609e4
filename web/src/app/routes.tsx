/**
 * The complete route map of SPEC.md section 2. Layouts and screens are lazy chunks (DESIGN.md budget:
 * initial JS ≤ 200 KB gzip).
 */
import { lazy, Suspense } from 'react';
import { Navigate, Outlet, type RouteObject } from 'react-router-dom';
import { oauthRedirectSegment, oauthVendors } from '#contracts/integration-names';
import { PageLoader } from '../components/PageLoader';
import { RouteError } from '../components/RouteError';
import { configurationSections, integrationNames } from '../paths';
import { ProjectGate } from '../projects/ProjectGate';
import { TeamGate } from '../teams/RoleGate';
import { NotFoundRedirect } from './NotFound';

const AuthLayout = lazy(() => import('./layouts/AuthLayout'));
const ProfileLayout = lazy(() => import('./layouts/ProfileLayout'));
const DocsLayout = lazy(() => import('./layouts/DocsLayout'));
const ApiReferenceScreen = lazy(() => import('../screens/ApiReferenceScreen'));
const LoginScreen = lazy(() => import('../screens/LoginScreen'));
const RegistrationScreen = lazy(() => import('../screens/RegistrationScreen'));
const ConfirmRegistrationScreen = lazy(() => import('../screens/ConfirmRegistrationScreen'));
const ConfirmEmailScreen = lazy(() => import('../screens/ConfirmEmailScreen'));
const ResetScreen = lazy(() => import('../screens/ResetScreen'));
const ResetVerificationScreen = lazy(() => import('../screens/ResetVerificationScreen'));
const InvitationScreen = lazy(() => import('../screens/InvitationScreen'));
const ProfileEditScreen = lazy(() => import('../screens/ProfileEditScreen'));
const OAuthRedirect = lazy(() => import('../screens/OAuthRedirect'));
const ProjectsScreen = lazy(() => import('../screens/ProjectsScreen'));
const CreateProjectScreen = lazy(() => import('../screens/CreateProjectScreen'));
const ConfigurationScreen = lazy(() => import('../screens/ConfigurationScreen'));
const WidgetScreen = lazy(() => import('../screens/WidgetScreen'));
const IssueListScreen = lazy(() => import('../screens/IssueListScreen'));
const IssueScreen = lazy(() => import('../screens/IssueScreen'));
const TokensScreen = lazy(() => import('../screens/TokensScreen'));
const AuditScreen = lazy(() => import('../screens/AuditScreen'));
const PrivacyScreen = lazy(() => import('../screens/PrivacyScreen'));
const BoardScreen = lazy(() => import('../screens/BoardScreen'));
const BillingScreen = lazy(() => import('../screens/BillingScreen'));
const IntegrationScreen = lazy(() => import('../screens/IntegrationScreen'));
const TeamScreen = lazy(() => import('../screens/TeamScreen'));
const InsightsScreen = lazy(() => import('../screens/InsightsScreen'));
const TeamInsightsScreen = lazy(() => import('../screens/TeamInsightsScreen'));
const ReplayScreen = lazy(() => import('../screens/ReplayScreen'));
const ProfileExtensionsScreen = lazy(() => import('../screens/ProfileExtensionsScreen'));
const ConnectExtensionScreen = lazy(() => import('../screens/ConnectExtensionScreen'));
const ConnectExtensionDoneScreen = lazy(() => import('../screens/ConnectExtensionDoneScreen'));

function Root() {
  // The cookie notice is part of each layout's flow (AuthLayout, ProfileLayout), so it covers nothing.
  return (
    <Suspense fallback={<PageLoader fullHeight />}>
      <Outlet />
    </Suspense>
  );
}

/**
 * A layout's screens inside the app's error boundary: a screen that throws shows RouteError where it
 * would have been, so the layout (top bar, navigation) stays around it.
 */
const guarded = (area: 'profile' | 'auth', children: RouteObject[]): RouteObject[] => [
  { errorElement: <RouteError area={area} />, children },
];

export const routes: RouteObject[] = [
  {
    element: <Root />,
    // A layout that fails itself: the error page on its own.
    errorElement: <RouteError area="bare" />,
    children: [
      {
        element: <AuthLayout />,
        children: guarded('auth', [
          { path: 'login', element: <LoginScreen /> },
          { path: 'registration', element: <RegistrationScreen /> },
          { path: 'confirm_registration', element: <ConfirmRegistrationScreen /> },
          { path: 'confirm_email', element: <ConfirmEmailScreen /> },
          { path: 'reset', element: <ResetScreen /> },
          { path: 'reset_verification', element: <ResetVerificationScreen /> },
          // Public, and also open with a session (issue 22): the page itself tells the two apart.
          { path: 'invitation', element: <InvitationScreen /> },
          // Issue 34: the browser extension's connect page (signed out, it sends to sign-in and back).
          { path: 'connect/extension', element: <ConnectExtensionScreen /> },
          { path: 'connect/extension/done', element: <ConnectExtensionDoneScreen /> },
        ]),
      },
      // Issue 25: public, and also open with a session; the reference's renderer loads on this page only.
      {
        path: 'docs/api',
        element: <DocsLayout />,
        children: guarded('profile', [{ index: true, element: <ApiReferenceScreen /> }]),
      },
      {
        path: 'profile',
        element: <ProfileLayout />,
        children: guarded('profile', [
          { index: true, element: <ProjectsScreen /> },
          { path: 'edit', element: <ProfileEditScreen /> },
          { path: 'edit/extension', element: <ProfileExtensionsScreen /> },
          // Issue 22: screens a role does not include say so (the server refuses their calls too).
          {
            path: 'billing',
            element: (
              <TeamGate right="billing">
                <BillingScreen />
              </TeamGate>
            ),
          },
          {
            path: 'team',
            element: (
              <TeamGate right="team">
                <TeamScreen />
              </TeamGate>
            ),
          },
          // Issue 37: the team's figures, for every role (a guest's cover their projects only).
          {
            path: 'team/insights',
            element: (
              <TeamGate right="team">
                <TeamInsightsScreen />
              </TeamGate>
            ),
          },
          {
            // The same right as the audit log: those who read who did what with people's data answer for it.
            path: 'team/privacy',
            element: (
              <TeamGate right="audit">
                <PrivacyScreen />
              </TeamGate>
            ),
          },
          {
            path: 'team/audit',
            element: (
              <TeamGate right="audit">
                <AuditScreen />
              </TeamGate>
            ),
          },
          {
            path: 'team/tokens',
            element: (
              <TeamGate right="tokens">
                <TokensScreen />
              </TeamGate>
            ),
          },
          {
            path: 'create/project',
            element: (
              <TeamGate right="projects">
                <CreateProjectScreen />
              </TeamGate>
            ),
          },
          // Keyed by list, so switching between the two lists starts a fresh screen (search box included).
          { path: 'site/:id', element: <IssueListScreen key="open" resolved={false} /> },
          { path: 'site/:id/board', element: <BoardScreen /> },
          { path: 'site/:id/ticket/:ticketId', element: <IssueScreen /> },
          { path: 'resolved/:id', element: <IssueListScreen key="resolved" resolved /> },
          // Issue 37: a project's figures (charts load with this screen only, never with the shell).
          { path: 'insights/:id', element: <InsightsScreen /> },
          // The OAuth vendors' returns (one fixed address each, registered in their app settings).
          ...oauthVendors.map((vendor) => ({
            path: oauthRedirectSegment(vendor),
            element: <OAuthRedirect vendor={vendor} />,
          })),
          {
            path: 'integrations/:id',
            children: [
              { index: true, element: <Navigate to="email" replace /> },
              ...integrationNames.map((name) => ({
                path: name,
                // Keyed by integration, so switching tabs starts each form afresh.
                element: (
                  <ProjectGate right="integrations">
                    <IntegrationScreen key={name} name={name} />
                  </ProjectGate>
                ),
              })),
            ],
          },
          {
            path: 'widget/:id',
            element: (
              <ProjectGate right="settings">
                <WidgetScreen />
              </ProjectGate>
            ),
          },
          {
            path: 'configuration/:id',
            children: [
              { index: true, element: <Navigate to="installation" replace /> },
              ...configurationSections.map((name) => ({
                path: name,
                element: (
                  <ProjectGate right="settings">
                    <ConfigurationScreen section={name} />
                  </ProjectGate>
                ),
              })),
            ],
          },
          // Unknown profile paths go to the dashboard (SPEC.md section 2), which says the page does not exist.
          { path: '*', element: <NotFoundRedirect /> },
        ]),
      },
      // Issue 33: a tracker's signed replay link, public, outside the layouts (no sign-in, no navigation).
      {
        path: 'replay/:token',
        element: <ReplayScreen />,
        errorElement: <RouteError area="bare" />,
      },
      // "/" goes to the dashboard; any other top-level path too, with the not-found notice.
      { index: true, element: <Navigate to="/profile" replace /> },
      { path: '*', element: <NotFoundRedirect /> },
    ],
  },
];
