import { describe, expect, it } from 'vitest';
import { loginSchema, registrationSchema } from '#contracts/schemas';
import { schemaValidator } from '../../../web/src/forms/validate';

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
