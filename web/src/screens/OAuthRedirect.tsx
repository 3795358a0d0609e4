/**
 * /profile/<vendor>_redirect: an OAuth vendor's return; forwards to the site's screen of that vendor
 * keeping the query (functions/contracts/integration-catalogue.ts `oauthRedirectSegment`).
 */
import { Navigate, useLocation } from 'react-router-dom';
import type { OAuthVendor } from '#contracts/integration-names';
import { oauthRedirectTarget } from '../paths';

export default function OAuthRedirect({ vendor }: { vendor: OAuthVendor }) {
  const { search } = useLocation();
  return <Navigate to={oauthRedirectTarget(vendor, search)} replace />;
}
