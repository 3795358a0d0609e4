/**
 * The invitation page's state: the link's public view, who is signed in, and the steps (accept, sign in
 * or register then accept, sign out). The view is loaded once per token, outside the SWR cache, because
 * signing in clears that cache and the page must keep showing the invitation through it.
 */
import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import type { ErrorCode } from '#contracts/errors';
import type { InvitationView } from '#contracts/teams';
import { errorCodeOf } from '../api';
import { clearApiCache, maybeSignedIn } from '../api/session';
import { paths } from '../paths';
import { switchTeam } from '../teams/data';
import { acceptInvitation, signOut as endSession, useSignedInProfile, viewInvitation } from './data';
import { type ClosedReason, closedReasonOfError, type InvitationStep, invitationStep } from './model';

export type PageState =
  | { step: 'loading' }
  /** The view could not be loaded for another reason than the link (e.g. the source's rate limit). */
  | { step: 'failed'; code: ErrorCode }
  | Extract<InvitationStep, { step: 'closed' }>
  | (Exclude<InvitationStep, { step: 'closed' }> & { invitation: InvitationView });

export function useInvitation(token: string | null) {
  const navigate = useNavigate();
  const [view, setView] = useState<InvitationView | null>(null);
  const [closed, setClosed] = useState<ClosedReason | null>(token ? null : 'unknown');
  const [failed, setFailed] = useState<ErrorCode | null>(null);
  const [error, setError] = useState<ErrorCode | null>(null);
  // Whether a session may exist: the readable hint, re-read after this page signs in or out.
  const [hinted, setHinted] = useState(maybeSignedIn);
  const profile = useSignedInProfile(hinted);

  useEffect(() => {
    if (!token) return;
    let live = true;
    viewInvitation(token).then(
      (answer) => live && setView(answer),
      (e: unknown) => {
        if (!live) return;
        const code = errorCodeOf(e);
        const reason = closedReasonOfError(code);
        if (reason) setClosed(reason);
        else setFailed(code);
      },
    );
    return () => {
      live = false;
    };
  }, [token]);

  const accept = useCallback(async () => {
    if (!token) return;
    setError(null);
    try {
      const { teamId } = await acceptInvitation(token);
      // Work in the new team from now on (the switcher's own step: the snag_team cookie, decision T8).
      await switchTeam(teamId);
      navigate(paths.profile, { replace: true });
    } catch (e) {
      const code = errorCodeOf(e);
      const reason = closedReasonOfError(code);
      if (reason) setClosed(reason);
      else setError(code);
    }
  }, [token, navigate]);

  /** After this page signed the visitor in (or registered them): the session exists, accept at once. */
  const signedIn = useCallback(async () => {
    setHinted(true);
    await accept();
  }, [accept]);

  const signOut = useCallback(async () => {
    try {
      await endSession();
    } catch {
      // The session may be gone already; the hint below decides what the page shows next.
    }
    await clearApiCache();
    setError(null);
    setHinted(maybeSignedIn());
  }, []);

  // No session, or one the API refused (expired): signed out. A session still loading: undefined.
  const account = !hinted || profile.error ? null : profile.data?.username;
  const signedInNow = account !== null && account !== undefined;
  let state: PageState;
  if (closed) state = { step: 'closed', reason: closed };
  else if (failed) state = { step: 'failed', code: failed };
  else if (!view || account === undefined) state = { step: 'loading' };
  else {
    const step = invitationStep(view, account);
    state = step.step === 'closed' ? step : { ...step, invitation: view };
  }
  return { state, signedIn: signedInNow, error, setError, accept, onSignedIn: signedIn, signOut };
}
