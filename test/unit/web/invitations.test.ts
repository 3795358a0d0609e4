/** The invitation page's rules (web/src/invitations/model.ts): the token, the closed reasons, the steps. */
import { describe, expect, it } from 'vitest';
import {
  closedReason,
  closedReasonOfError,
  invitationStep,
  invitationToken,
} from '../../../web/src/invitations/model';

const token = 'AbCdEfGhIjKlMnOpQrSt_-';

describe('the invitation page', () => {
  it('reads a well-formed token from the address and nothing else', () => {
    expect(invitationToken(`?token=${token}`)).toBe(token);
    expect(invitationToken(`?token=${token}&x=1`)).toBe(token);
    expect(invitationToken('')).toBeNull();
    expect(invitationToken('?token=')).toBeNull();
    expect(invitationToken(`?token=${token.slice(1)}`)).toBeNull();
    expect(invitationToken(`?token=${token}A`)).toBeNull();
    expect(invitationToken(`?token=${token.slice(1)}%20`)).toBeNull();
    expect(invitationToken(`?token=${token.slice(1)}.`)).toBeNull();
  });

  it('says why a link cannot be accepted, from its state or from the accept refusal', () => {
    expect(closedReason('pending')).toBeNull();
    expect(closedReason('used')).toBe('used');
    expect(closedReason('revoked')).toBe('revoked');
    expect(closedReason('expired')).toBe('expired');
    expect(closedReasonOfError('INVITATION_INVALID')).toBe('unknown');
    expect(closedReasonOfError('INVITATION_USED')).toBe('used');
    expect(closedReasonOfError('INVITATION_REVOKED')).toBe('revoked');
    expect(closedReasonOfError('INVITATION_EXPIRED')).toBe('expired');
    expect(closedReasonOfError('SEAT_LIMIT')).toBeNull();
    expect(closedReasonOfError('INVITATION_WRONG_ACCOUNT')).toBeNull();
  });

  it('picks the step by link state and session, comparing addresses as the server keys them', () => {
    const open = { state: 'pending' as const, email: 'ada@example.com' };
    expect(invitationStep(open, null)).toEqual({ step: 'signedOut' });
    expect(invitationStep(open, 'Ada@Example.com ')).toEqual({ step: 'accept' });
    expect(invitationStep(open, 'grace@example.com')).toEqual({
      step: 'wrongAccount',
      current: 'grace@example.com',
    });
    // A closed link says so whoever is signed in.
    for (const account of [null, 'ada@example.com', 'grace@example.com']) {
      expect(invitationStep({ ...open, state: 'used' }, account)).toEqual({ step: 'closed', reason: 'used' });
    }
  });
});
