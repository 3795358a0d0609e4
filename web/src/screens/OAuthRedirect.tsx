/**
 * /profile/asana_redirect and /profile/slack_redirect: the vendor's OAuth return; forwards to the site's
 * screen of that vendor keeping the query (functions/contracts/vendor-auth.ts `oauthRedirectPaths`).
 */
import { Navigate, useLocation } from 'react-router-dom';
import { oauthRedirectTarget } from '../paths';

export default function OAuthRedirect({ vendor }: { vendor: 'slack' | 'asana' }) {
  const { search } = useLocation();
  return <Navigate to={oauthRedirectTarget(vendor, search)} replace />;
}
