import { describe, expect, it } from 'vitest';
import type { IntegrationsAnswer } from '../../../functions/shared/integrations';
import { isAvailable, oauthReturnOf, toggleTicket, viewOf } from '../../../web/src/integrations/model';

const answer: IntegrationsAnswer = [
  {
    name: 'email',
    active: 1,
    authorized: 0,
    available: true,
    data: { email: 'a@b.c', cc: [], contactFields: [] },
  },
  { name: 'slack', active: 0, authorized: 1, available: false, data: { id: 'C1', name: 'bugs' } },
];

describe('integration screens', () => {
  it('finds an integration of the project answer by name', () => {
    expect(viewOf(answer, 'slack')?.data).toEqual({ id: 'C1', name: 'bugs' });
    expect(viewOf(answer, 'jira')).toBeNull();
    expect(viewOf(undefined, 'email')).toBeNull();
  });

  it('keeps email open on every plan and follows the server for the others', () => {
    expect(isAvailable('email', false, viewOf(answer, 'email'))).toBe(true);
    // The server knows the effective plan: its answer wins over the profile's flag.
    expect(isAvailable('slack', true, viewOf(answer, 'slack'))).toBe(false);
    expect(isAvailable('jira', false, null)).toBe(false);
    expect(isAvailable('jira', true, null)).toBe(true);
  });

  it("reads the vendor's OAuth return from the address", () => {
    expect(oauthReturnOf('?code=abc&state=s.n.1.sig')).toEqual({
      kind: 'code',
      code: 'abc',
      state: 's.n.1.sig',
    });
    expect(oauthReturnOf('?error=access_denied&state=s')).toEqual({ kind: 'declined' });
    expect(oauthReturnOf('?code=abc')).toBeNull();
    expect(oauthReturnOf('')).toBeNull();
  });

  it('selects sync tickets once each, newest first', () => {
    let selected = toggleTicket([], 3, true);
    selected = toggleTicket(selected, 12, true);
    selected = toggleTicket(selected, 3, true);
    expect(selected).toEqual([12, 3]);
    expect(toggleTicket(selected, 12, false)).toEqual([3]);
  });
});
