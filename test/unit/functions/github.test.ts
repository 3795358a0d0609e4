/**
 * GitHub's pure rules (issue 24): the settings schema a save and the dashboard share, the quoting helpers
 * of the deliverer, the vendor id's number, and GitHub's rate-limit 403 as a retryable failure.
 */
import { describe, expect, it } from 'vitest';
import { githubDataSchema, integrationInputSchema } from '#contracts/integrations';
import { githubCode, githubFenced, inert } from '../../../functions/integrations/deliverers/github';
import { githubIssueNumberOf } from '../../../functions/integrations/vendors/github';
import { isVendorOutage, statusError } from '../../../functions/integrations/vendors/http';

describe('GitHub settings schema', () => {
  it('takes owner/repo names and labels as GitHub allows them', () => {
    expect(githubDataSchema.parse({})).toEqual({ key: '', id: '', labels: [] });
    const ok = githubDataSchema.parse({
      key: 't',
      id: 'octo-org/my.repo_1-x',
      labels: ['bug', 'bug', 'needs triage'],
    });
    expect(ok).toEqual({ key: 't', id: 'octo-org/my.repo_1-x', labels: ['bug', 'needs triage'] });
  });

  it('refuses repository names that would walk the API path, and bad labels', () => {
    for (const id of [
      '..',
      'octo-org/..',
      'octo-org/.',
      'a/b/c',
      '../x',
      'octo org/x',
      '-x/y',
      'x/',
      '/y',
      'x?y/z',
    ])
      expect(githubDataSchema.safeParse({ id }).success, id).toBe(false);
    for (const labels of [
      ['a,b'],
      ['x'.repeat(51)],
      [''],
      ['bad\u202Eeman'],
      Array.from({ length: 11 }, (_, i) => `${i}`),
    ])
      expect(githubDataSchema.safeParse({ labels }).success, JSON.stringify(labels)).toBe(false);
  });

  it('is one of the save call’s integrations', () => {
    const parsed = integrationInputSchema.parse({
      name: 'github',
      active: 1,
      data: { key: 'k', id: 'o/r', labels: ['x'] },
    });
    expect(parsed).toMatchObject({ name: 'github', data: { key: 'k', id: 'o/r', labels: ['x'] } });
  });
});

describe('GitHub quoting', () => {
  it('fences text longer than any backtick run in it', () => {
    expect(githubFenced('a ```` b')).toBe('`````text\na ```` b\n`````');
    expect(githubFenced('plain\r\nlines')).toBe('```text\nplain\nlines\n```');
  });

  it('spans one line with a delimiter longer than its backticks, padded', () => {
    expect(githubCode('x `y` ``z``\nnext')).toBe('``` x `y` ``z`` next ```');
    expect(githubCode('@all')).toBe('` @all `');
  });

  it('joins @, #, :// and www. so they read the same and match nothing', () => {
    const out = inert('@octo #1 https://x.example www.y.example\nnext');
    expect(out.replace(/\u2060/g, '')).toBe('@octo #1 https://x.example www.y.example next');
    expect(out).not.toMatch(/@o|#1|:\/\/|www\./);
  });
});

describe('GitHub vendor id and failures', () => {
  it('reads the issue number back from the recorded address', () => {
    expect(githubIssueNumberOf('https://github.com/o/r/issues/42')).toBe(42);
    expect(githubIssueNumberOf('https://ghe.example/o/r/issues/7#issue-1')).toBe(7);
    expect(githubIssueNumberOf('https://github.com/o/r/pull/3')).toBeUndefined();
  });

  it('treats a 403 with no requests left or Retry-After as a rate limit (retried), any other 403 as a refused token', () => {
    const limited = statusError(
      'github',
      new Response('', { status: 403, headers: { 'x-ratelimit-remaining': '0' } }),
      'issue',
    );
    expect(limited).toMatchObject({ permanent: false });
    expect(isVendorOutage(limited)).toBe(true);
    const secondary = statusError(
      'github',
      new Response('', { status: 403, headers: { 'retry-after': '60' } }),
      'issue',
    );
    expect(secondary).toMatchObject({ permanent: false, details: { retryAfterSeconds: 60 } });
    const refused = statusError('github', new Response('', { status: 403 }), 'issue');
    expect(refused).toMatchObject({ permanent: true });
    expect(refused.reason).toContain('GitHub refused the token (403)');
    expect(isVendorOutage(refused)).toBe(false);
  });
});
