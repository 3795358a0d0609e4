import { describe, expect, it } from 'vitest';
import { type IntegrationsAnswer, vendorKeyText } from '#contracts/integrations';
import { ApiError } from '../../../web/src/api/client';
import { apiFieldErrors } from '../../../web/src/forms/validate';
import {
  integrationFieldPath,
  isAvailable,
  oauthReturnOf,
  selectionOf,
  syncState,
  toggleAll,
  toggleTicket,
  vendorKeyProblem,
  vendorRefusal,
  viewOf,
} from '../../../web/src/integrations/model';

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

  it('selects a whole list and takes it out again, keeping the other list', () => {
    expect(toggleAll([7], [3, 5, 4], true)).toEqual([7, 5, 4, 3]);
    expect(toggleAll([7, 5, 4, 3], [3, 5, 4], false)).toEqual([7]);
    expect(selectionOf([7], [3, 5])).toBe('none');
    expect(selectionOf([7, 5], [3, 5])).toBe('some');
    expect(selectionOf([5, 3], [3, 5])).toBe('all');
  });

  it('says what the sync lists need first: Active, or for a vendor the authorisation', () => {
    const email = viewOf(answer, 'email')!;
    const slack = viewOf(answer, 'slack')!;
    expect(syncState(email)).toBe('active');
    expect(syncState({ ...email, active: 0 })).toBe('off');
    expect(syncState(slack)).toBe('off');
    expect(syncState({ ...slack, authorized: 0 })).toBe('unauthorized');
  });

  it("shows a vendor's refusal in the server's words, and nothing of a failure that is not one", () => {
    const refused = 'GitLab refused the token (401).';
    expect(vendorRefusal(new ApiError(400, 'SYSTEM_ERROR', refused))).toBe(refused);
    expect(vendorRefusal(new ApiError(422, 'INVALID_PARAMETERS', refused))).toBe(refused);
    // The vendor down (502) or no answer at all: the catalogue text of the code says it better.
    expect(vendorRefusal(new ApiError(502, 'AUTHORIZATION_FAILED', 'Authorization failed'))).toBeNull();
    expect(vendorRefusal(new ApiError(0, 'SYSTEM_ERROR', 'Failed to fetch'))).toBeNull();
    expect(vendorRefusal(new Error('boom'))).toBeNull();
  });
});

describe('integrationFieldPath', () => {
  it('puts a refusal of the list save on the form field it names', () => {
    // A changed host with the masked token: the server refuses data.key (SECRET_REQUIRED).
    expect(integrationFieldPath('data.key')).toBe('key');
    // A schema refusal of the first (only) integration of the list.
    expect(integrationFieldPath('0.data.url')).toBe('url');
    expect(integrationFieldPath('0.data.cc.1')).toBe('cc.1');
    expect(integrationFieldPath('id')).toBe('id');
  });

  it('gives the catalogue message for the mapped field', () => {
    expect(Object.keys(apiFieldErrors({ 'data.key': 'SECRET_REQUIRED' }, integrationFieldPath))).toEqual([
      'key',
    ]);
  });
});

describe('the key field of the token forms', () => {
  // The forms check the key with the schema the API refuses it by, so they say it before anything is sent.
  it('refuses what an HTTP header cannot carry, and accepts keys as vendors issue them and the masked key', () => {
    for (const ok of ['glpat-AbC_123', 'lin_api_x.y~z', '••••oken', '  ghp_trimmed  '])
      expect(vendorKeyText.safeParse(ok).success, ok).toBe(true);
    for (const bad of ['glpat-\u2603', 'one two', 'a\nb', 'x\u0000', 'tök', 'a\u200Bb'])
      expect(vendorKeyText.safeParse(bad).error?.issues[0]?.message, bad).toBe('INVALID_PARAMETERS');
    // What the token forms say: required, the header rule, or nothing.
    expect(vendorKeyProblem('   ')).toBe('validation.required');
    expect(vendorKeyProblem('one two')).toBe('integrationScreen.keyInvalid');
    expect(vendorKeyProblem('glpat-AbC_123')).toBeNull();
  });
});
