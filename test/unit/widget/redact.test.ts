import { describe, expect, it } from 'vitest';
import { redact } from '../../../widget/src/capture/redact';

describe('redact, the rule of logs and steps', () => {
  it('replaces email addresses', () => {
    expect(redact('Sent to jane.doe+shop@mail.example.co.uk today')).toBe('Sent to [email] today');
  });

  it('replaces card and phone numbers, grouped or not', () => {
    expect(redact('card 4242 4242 4242 4242 declined')).toBe('card [number] declined');
    expect(redact('card 4242-4242-4242-4242')).toBe('card [number]');
    expect(redact('call +49 170 1234567')).toBe('call [number]');
    expect(redact('id=123456789012')).toBe('id=[number]');
  });

  it('keeps short numbers, dates, times, versions and words with digits', () => {
    for (const text of [
      'GET /api/items/1234 500',
      'at 2026-11-29 07:23:09',
      'v1.22.333',
      'Order 12345678 failed',
      'app.js:120:14',
    ])
      expect(redact(text)).toBe(text);
  });

  it('replaces tokens: JWTs, bearer credentials and long mixed keys', () => {
    expect(redact('auth eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl ok')).toBe('auth [token] ok');
    expect(redact('Authorization: Bearer abc.def-ghi')).toBe('Authorization: [token]');
    expect(redact('key sk_live_51HxYz2eZvKYlo2C0abcdEFGH fails')).toBe('key [token] fails');
    // Long words without digits are words.
    expect(redact('internationalisation_is_a_long_word')).toBe('internationalisation_is_a_long_word');
  });
});
