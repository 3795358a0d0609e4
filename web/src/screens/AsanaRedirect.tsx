/** /profile/asana_redirect: Asana's OAuth return; forwards to the site's Asana screen keeping the query. */
import { Navigate, useLocation } from 'react-router-dom';
import { asanaRedirectTarget } from '../routes/paths';

export default function AsanaRedirect() {
  const { search } = useLocation();
  return <Navigate to={asanaRedirectTarget(search)} replace />;
}
