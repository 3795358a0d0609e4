import { describe, expect, it } from 'vitest';
import { ibanValid, isSecretName, luhn, redactText, redactUrl } from '#contracts/redaction';

describe('redactText', () => {
  it('keeps email addresses when asked to (custom fields), and masks the rest', () => {
    const text = 'jane@example.com paid with 4242 4242 4242 4242';
    expect(redactText(text, { emails: false })).toBe('jane@example.com paid with [redacted:card]');
    expect(redactText(text, { emails: true })).toBe('[redacted:email] paid with [redacted:card]');
  });

  it('masks a number and keeps what follows it when only its first groups are the secret', () => {
    expect(redactText('card 4242 4242 4242 4242 12/27', { emails: true })).toBe('card [redacted:card] 12/27');
    expect(redactText('call +49 170 1234567 at 10:30', { emails: true })).toBe(
      'call [redacted:phone] at 10:30',
    );
  });

  it('keeps the key and the quotes of a named secret, the scheme of a bearer credential', () => {
    expect(redactText(`{"apiKey":'abc123', "password": "a b"}`, { emails: true })).toBe(
      `{"apiKey":'[redacted:secret]', "password": "[redacted:secret]"}`,
    );
    expect(redactText('Authorization: Bearer mF_9.B5f-4.1JqM', { emails: true })).toBe(
      'Authorization: Bearer [redacted:bearer]',
    );
    expect(redactText('Authorization: Basic dXNlcjpwYXNz', { emails: true })).toBe(
      'Authorization: [redacted:secret]',
    );
  });

  it('redacts addresses inside a log line as addresses', () => {
    expect(redactText('GET https://api.example.com/u?sig=abc&page=2 403', { emails: true })).toBe(
      'GET https://api.example.com/u?sig=[redacted:param]&page=2 403',
    );
  });
});

describe('redactUrl', () => {
  it("masks secret parameters of the query and the fragment, whatever the name's case", () => {
    expect(redactUrl('https://a.test/cb?code=1&STATE=x#access_token=abc&expires_in=3600')).toBe(
      'https://a.test/cb?code=1&STATE=x#access_token=[redacted:param]&expires_in=3600',
    );
    expect(redactUrl('https://a.test/#/reset?Token=abc')).toBe(
      'https://a.test/#/reset?Token=[redacted:param]',
    );
    expect(redactUrl('https://a.test/p?X-Amz-Signature=ff00&X-Amz-Date=20261129T000000Z')).toBe(
      'https://a.test/p?X-Amz-Signature=[redacted:param]&X-Amz-Date=20261129T000000Z',
    );
  });

  it('keeps an address without secrets byte for byte, ids in its path included', () => {
    for (const url of [
      'https://shop.example.com/orders/01701234567?tab=items&page=2#summary',
      'https://example.com/search?q=caf%C3%A9+cr%C3%A8me&sort=price',
      'https://cdn.example.com/assets/index-3f9a2b1c.js?v=1.2.3',
      'https://example.com/a?flag&x=',
    ])
      expect(redactUrl(url)).toBe(url);
  });

  it('masks personal values in parameter values and secrets in the path', () => {
    expect(redactUrl('https://example.com/v?email=jane%40example.com')).toBe(
      'https://example.com/v?email=[redacted:email]',
    );
    expect(redactUrl('https://example.com/t/sk_live_51HxYz2eZvKYlo2C0abcd/x')).toBe(
      'https://example.com/t/[redacted:stripe-key]/x',
    );
  });
});

describe('the checks', () => {
  it('Luhn, mod-97 and the names of secret parameters', () => {
    expect(luhn('4242424242424242')).toBe(true);
    expect(luhn('4242424242424241')).toBe(false);
    expect(ibanValid('DE89 3704 0044 0532 0130 00')).toBe(true);
    expect(ibanValid('DE88 3704 0044 0532 0130 00')).toBe(false);
    expect(ibanValid('XX89 3704 0044 0532 0130 00')).toBe(false);
    for (const name of [
      'password',
      'db_password',
      'csrfToken',
      'X-Amz-Signature',
      'api-key',
      'STRIPE_SECRET_KEY',
      'sig',
    ])
      expect(isSecretName(name), name).toBe(true);
    for (const name of ['monkey', 'tokens', 'page', 'keyword', 'signup', 'max_tokens', 'q'])
      expect(isSecretName(name), name).toBe(false);
  });
});
