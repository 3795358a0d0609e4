import { beforeAll, describe, expect, it } from 'vitest';
import { loginSchema, registrationSchema } from '#contracts/schemas';
import { ApiError } from '../../../web/src/api/client';
import { apiFieldErrors, refusalText, schemaValidator } from '../../../web/src/forms/validate';
import { displayLocale, errorText, i18nReady } from '../../../web/src/i18n';

// The catalogue is a chunk of its own, loaded before the dashboard renders: so before these read it.
beforeAll(() => i18nReady);

describe('schemaValidator (forms use the shared zod schemas)', () => {
  it('accepts valid input', () => {
    expect(schemaValidator(loginSchema)({ _username: 'a@b.io', _password: 'x' })).toEqual({});
  });

  it('marks empty fields as required', () => {
    expect(schemaValidator(loginSchema)({ _username: '', _password: '' })).toEqual({
      _username: 'This field is required',
      _password: 'This field is required',
    });
  });

  it('shows the catalogue text for rules that carry a code', () => {
    const errors = schemaValidator(registrationSchema)({
      _username: 'not-an-email',
      _password: '123',
      firstName: 'A',
      lastName: 'B',
      altcha: 'x',
    });
    expect(errors._username).toBe('Please check your email address');
    expect(errors._password).toBe('Password must be at least 6 characters');
  });

  it('reads "check this value" for other failures', () => {
    const errors = schemaValidator(loginSchema)({ _username: 'x'.repeat(101), _password: 'x' });
    expect(errors._username).toBe('Please check this value');
  });
});

describe('API refusals in the forms (what the API says a field expects)', () => {
  const refused = new ApiError(
    400,
    'INVALID_PARAMETERS',
    'Invalid parameters: …',
    {
      visibility: 'INVALID_PARAMETERS',
      url: 'INVALID_DOMAIN',
    },
    { expected: { visibility: 'expected one of: internal, public', url: 'expected a URL' } },
  );

  it('marks each named input with what it expects, a code of its own with its text', () => {
    expect(apiFieldErrors(refused.fields, undefined, refused.details.expected)).toEqual({
      visibility: 'expected one of: internal, public',
      url: 'Please enter a domain such as example.com',
    });
    // Without `expected` (an older API, a handler's own refusal) it still reads "check this value".
    expect(apiFieldErrors({ visibility: 'INVALID_PARAMETERS' })).toEqual({
      visibility: 'Please check this value',
    });
  });

  it('reads as one line for a form without inputs to mark', () => {
    expect(refusalText(refused)).toBe(
      'Invalid parameters: visibility: expected one of: internal, public; url: expected a URL',
    );
    expect(refusalText(new ApiError(403, 'FORBIDDEN', 'x'))).toBe(
      'Your role in this team does not allow this',
    );
  });
});

describe('the sign-in block in the reader’s time', () => {
  it('ends the message with the time the block lifts, or "later" without one', () => {
    const at = new Date(Date.now() + 10 * 60_000);
    const time = at.toLocaleString(displayLocale(), { timeStyle: 'short' });
    const today = at.toDateString() === new Date().toDateString();
    const text = errorText('ACCESS_DISABLED', 'login', at.toISOString());
    if (today) expect(text).toMatch(new RegExp(`attempts \\(.*\\)\\. Try again after ${time}\\.$`));
    expect(errorText('ACCESS_DISABLED', 'login')).toMatch(/\. Try again later\.$/);
    expect(errorText('ACCESS_DENIED', 'login', at.toISOString())).toBe('Incorrect email or password');
  });
});
