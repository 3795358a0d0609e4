/**
 * /connect/extension?challenge&state&browser (contracts/extension.ts): the browser extension asks to
 * connect. Signed out: the sign-in page, which comes back here with the query. Signed in: who and what,
 * Approve (the one-time code goes to the extension through the done page's address) or Cancel. An address
 * the extension did not make (a missing or malformed challenge or state) says so, with nothing to press.
 */
import { Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate } from 'react-router-dom';
import { extensionConnectQuery } from '#contracts/extension';
import { AuthHeading } from '../accounts/AuthHeading';
import { approveExtension, useConnectingMember } from '../accounts/data';
import { ExtensionApproval } from '../accounts/ExtensionApproval';
import { maybeSignedIn } from '../api/session';
import { ErrorAlert } from '../components/ErrorAlert';
import { PageLoader } from '../components/PageLoader';
import { useDocumentTitle } from '../hooks/title';
import { paths } from '../paths';

export default function ConnectExtensionScreen() {
  const { t } = useTranslation();
  useDocumentTitle(t('screens.connectExtension'));
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  const here = `${pathname}${search}`;
  const parsed = extensionConnectQuery.safeParse(Object.fromEntries(new URLSearchParams(search)));
  const signedIn = maybeSignedIn();
  const { data: profile } = useConnectingMember(here, parsed.success && signedIn);

  if (!parsed.success) {
    return (
      <Stack gap="lg" data-testid="extension-invalid">
        <AuthHeading title={t('extension.connect.invalidTitle')} />
        <ErrorAlert>{t('extension.connect.invalid')}</ErrorAlert>
      </Stack>
    );
  }
  if (!signedIn) return <Navigate to={paths.loginThen(here)} replace />;
  if (!profile) return <PageLoader />;

  const { challenge, state, browser } = parsed.data;
  const name = `${profile.firstName} ${profile.lastName}`.trim();
  return (
    <ExtensionApproval
      browser={browser}
      member={{ name, email: profile.username }}
      onApprove={async () => {
        const code = await approveExtension(challenge, browser);
        navigate(paths.connectExtensionDone({ code, state }), { replace: true });
      }}
      onCancel={() => navigate(paths.connectExtensionDone({ error: 'denied', state }), { replace: true })}
    />
  );
}
