/**
 * The invitation page's rules (issue 22, /invitation?token=…): which step a visitor is at, from the link's
 * public view and the session. Free of React, so unit tests cover every case directly.
 */
import type { ErrorCode } from '#contracts/errors';
import { invitationTokenField } from '#contracts/schemas';
import type { InvitationState } from '#contracts/teams';

/** Why a link cannot be accepted, each with its own message. */
export type ClosedReason = 'used' | 'revoked' | 'expired' | 'unknown';

export type InvitationStep =
  | { step: 'closed'; reason: ClosedReason }
  /** No session: sign in or create an account with the invited address. */
  | { step: 'signedOut' }
  /** Signed in with the invited address: accept. */
  | { step: 'accept' }
  /** Signed in with another account: say so, offer to sign out. */
  | { step: 'wrongAccount'; current: string };

/**
 * The link's token from the page address, by the server's own rule (22 base64url characters); anything
 * else cannot be a link we sent, so it is unknown without asking the server.
 */
export function invitationToken(search: string): string | null {
  const token = new URLSearchParams(search).get('token')?.trim() ?? '';
  return invitationTokenField.safeParse(token).success ? token : null;
}

/** The closed reason of a link state (a link replaced by a resend reads as revoked); null while open. */
export function closedReason(state: InvitationState): ClosedReason | null {
  return state === 'pending' ? null : state;
}

/** Each closed reason's catalogue code: the accept's refusal, and the page's heading (one wording). */
export const closedReasonCodes = {
  unknown: 'INVITATION_INVALID',
  used: 'INVITATION_USED',
  revoked: 'INVITATION_REVOKED',
  expired: 'INVITATION_EXPIRED',
} as const satisfies Record<ClosedReason, ErrorCode>;

/** The closed reason a call refused with, if the refusal was about the link itself. */
export function closedReasonOfError(code: ErrorCode): ClosedReason | null {
  const found = Object.entries(closedReasonCodes).find(([, c]) => c === code);
  return found ? (found[0] as ClosedReason) : null;
}

/**
 * The step of a loaded invitation: closed links say why; an open one depends on who is signed in
 * (`account`: the session's address, null without a session). Addresses compare as the server keys them:
 * trimmed and lowercased.
 */
export function invitationStep(
  invitation: { state: InvitationState; email: string },
  account: string | null,
): InvitationStep {
  const reason = closedReason(invitation.state);
  if (reason) return { step: 'closed', reason };
  if (account === null) return { step: 'signedOut' };
  const same = account.trim().toLowerCase() === invitation.email.trim().toLowerCase();
  return same ? { step: 'accept' } : { step: 'wrongAccount', current: account };
}
