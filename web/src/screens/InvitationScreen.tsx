/**
 * /invitation?token=… (issue 22): who invites the visitor to which team and role; then, by session, sign
 * in or register with the invited address and accept, accept, or sign out of another account. A used,
 * withdrawn, expired or unknown link says which.
 */
import { Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';
import { AuthHeading } from '../accounts/AuthHeading';
import { ErrorAlert } from '../components/ErrorAlert';
import { PageLoader } from '../components/PageLoader';
import { useDocumentTitle } from '../hooks/title';
import { errorText } from '../i18n';
import { AcceptStep, WrongAccountStep } from '../invitations/AccountSteps';
import { InvitationClosed } from '../invitations/InvitationClosed';
import { InvitationSummary } from '../invitations/InvitationSummary';
import { JoinForms } from '../invitations/JoinForms';
import { invitationToken } from '../invitations/model';
import { useInvitation } from '../invitations/useInvitation';

export default function InvitationScreen() {
  const { t } = useTranslation();
  useDocumentTitle(t('screens.invitation'));
  const token = invitationToken(useLocation().search);
  const { state, signedIn, error, accept, onSignedIn, signOut } = useInvitation(token);

  if (state.step === 'loading') return <PageLoader />;
  if (state.step === 'closed') return <InvitationClosed reason={state.reason} signedIn={signedIn} />;
  if (state.step === 'failed') {
    // The link could not be read (the source's rate limit, the network): say so under the page's name.
    return (
      <Stack gap="lg">
        <AuthHeading title={t('screens.invitation')} />
        <ErrorAlert>{errorText(state.code)}</ErrorAlert>
      </Stack>
    );
  }

  const { invitation } = state;
  return (
    <Stack gap="lg">
      <InvitationSummary invitation={invitation} />
      {error && <ErrorAlert>{errorText(error)}</ErrorAlert>}
      {state.step === 'signedOut' && token && (
        <JoinForms token={token} email={invitation.email} onSignedIn={onSignedIn} />
      )}
      {state.step === 'accept' && <AcceptStep email={invitation.email} onAccept={accept} />}
      {state.step === 'wrongAccount' && (
        <WrongAccountStep email={invitation.email} current={state.current} onSignOut={signOut} />
      )}
    </Stack>
  );
}
