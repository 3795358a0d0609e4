/**
 * Unknown addresses (SPEC.md section 2: "Any other top-level path redirects to /profile", "Unknown /profile
 * paths go to /profile"). The redirect stays, but it says so: the address that does not exist travels in
 * the history entry's state and the profile area shows a notice above the projects (NotFoundNotice), so a
 * mistyped or stale link is not silently swallowed (issue 19, docs/decisions-web.md).
 */
import { Alert } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate } from 'react-router-dom';
import { paths } from '../paths';

/** The state a not-found redirect leaves on /profile. */
export interface NotFoundState {
  notFound: string;
}

export const notFoundOf = (state: unknown): string | null => {
  const value = (state as Partial<NotFoundState> | null)?.notFound;
  return typeof value === 'string' ? value : null;
};

export function NotFoundRedirect() {
  const { pathname } = useLocation();
  const state: NotFoundState = { notFound: pathname };
  return <Navigate to={paths.profile} replace state={state} />;
}

/** The notice on the page a not-found redirect landed on; gone with the next navigation or on Dismiss. */
export function NotFoundNotice() {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const missing = notFoundOf(location.state);
  if (!missing) return null;
  return (
    <Alert
      color="yellow"
      variant="light"
      icon={<IconAlertTriangle size={18} />}
      role="status"
      mb="md"
      withCloseButton
      closeButtonLabel={t('nav.notFoundDismiss')}
      onClose={() => navigate({ pathname: location.pathname, search: location.search }, { replace: true })}
      data-testid="not-found-notice"
    >
      {/* The address is the visitor's own input, shown as text only (React escapes it). */}
      {t('nav.notFound', { path: missing.length > 80 ? `${missing.slice(0, 80)}…` : missing })}
    </Alert>
  );
}
