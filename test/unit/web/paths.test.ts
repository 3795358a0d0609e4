import { describe, expect, it } from 'vitest';
import {
  confirmEmailRequest,
  loginErrorCode,
  loginNotice,
  loginWith,
  stripLoginNoticeParams,
} from '../../../web/src/accounts/login-model';
import {
  afterLogin,
  oauthRedirectTarget,
  paths,
  projectIdFromPath,
  safeNext,
  sidebarSection,
  withNext,
} from '../../../web/src/paths';

describe('oauthRedirectTarget', () => {
  it('forwards to the site of state, keeping the whole query', () => {
    expect(oauthRedirectTarget('asana', '?code=abc&state=site-1')).toBe(
      '/profile/integrations/site-1/asana?code=abc&state=site-1',
    );
    expect(oauthRedirectTarget('asana', 'state=s2')).toBe('/profile/integrations/s2/asana?state=s2');
  });

  it('takes the site id from a signed state (the part before the first dot)', () => {
    const state = '3f1c2b9e-0000-4000-8000-000000000001.nonce.1700000000.sig';
    expect(oauthRedirectTarget('asana', `?code=c&state=${state}`)).toBe(
      `/profile/integrations/3f1c2b9e-0000-4000-8000-000000000001/asana?code=c&state=${state}`,
    );
  });

  it("forwards Slack's return to the site's Slack screen", () => {
    expect(oauthRedirectTarget('slack', '?code=c&state=site-9.n.1.s')).toBe(
      '/profile/integrations/site-9/slack?code=c&state=site-9.n.1.s',
    );
  });

  it('encodes the state as one path segment', () => {
    expect(oauthRedirectTarget('asana', '?state=a%2Fb')).toBe(
      '/profile/integrations/a%2Fb/asana?state=a%2Fb',
    );
  });

  it('goes to the dashboard without a state', () => {
    expect(oauthRedirectTarget('asana', '')).toBe('/profile');
    expect(oauthRedirectTarget('asana', '?code=abc')).toBe('/profile');
  });
});

describe('login notices', () => {
  it('reads username, code=1 and reset=1', () => {
    expect(loginNotice('?username=a%40b.io')).toBe('registered');
    expect(loginNotice('?code=1')).toBe('invalidCode');
    expect(loginNotice('?reset=1')).toBe('reset');
    expect(loginNotice('?code=2')).toBeNull();
    expect(loginNotice('')).toBeNull();
  });

  it('strips only the notice parameters', () => {
    expect(stripLoginNoticeParams('?username=x&code=1&reset=1')).toBe('');
    expect(stripLoginNoticeParams('?username=x&next=%2Fprofile')).toBe('?next=%2Fprofile');
  });

  it("shows the three login codes, the throttle's own, and SYSTEM_ERROR for any other", () => {
    expect(loginErrorCode('ACCESS_DENIED')).toBe('ACCESS_DENIED');
    expect(loginErrorCode('ACCESS_DISABLED')).toBe('ACCESS_DISABLED');
    expect(loginErrorCode('CONFIRMATION_REQUIRED')).toBe('CONFIRMATION_REQUIRED');
    expect(loginErrorCode('RATE_LIMITED')).toBe('RATE_LIMITED');
    expect(loginErrorCode('FORBIDDEN_ORIGIN')).toBe('SYSTEM_ERROR');
    expect(loginErrorCode('NOT_FOUND')).toBe('SYSTEM_ERROR');
  });
});

describe('sidebar state from the address', () => {
  it('names the open section', () => {
    expect(sidebarSection('/profile')).toBe('dashboard');
    expect(sidebarSection('/profile/site/1/ticket/4')).toBe('feedback');
    expect(sidebarSection('/profile/resolved/1')).toBe('archive');
    expect(sidebarSection('/profile/integrations/1/jira')).toBe('integrations');
    expect(sidebarSection('/profile/configuration/1/general')).toBe('configuration');
    expect(sidebarSection('/profile/edit')).toBeNull();
  });

  it('finds the project id', () => {
    expect(projectIdFromPath('/profile/widget/p1')).toBe('p1');
    expect(projectIdFromPath('/profile/site/p1/ticket/3')).toBe('p1');
    expect(projectIdFromPath('/profile/billing')).toBeNull();
    expect(projectIdFromPath('/login')).toBeNull();
  });
});

describe('confirmEmailRequest (SPEC.md section 2, /confirm_email)', () => {
  it('asks to confirm a well-formed link', () => {
    expect(confirmEmailRequest('?username=ada%40example.com&code=ABCD1234')).toEqual({
      _username: 'ada@example.com',
      confirmationCode: 'ABCD1234',
    });
  });

  it('accepts a username of exactly 3 characters', () => {
    expect(confirmEmailRequest('?username=abc&code=ABCD1234')).not.toBeNull();
  });

  it('refuses a username shorter than 3 characters', () => {
    expect(confirmEmailRequest('?username=ab&code=ABCD1234')).toBeNull();
    expect(confirmEmailRequest('?code=ABCD1234')).toBeNull();
  });

  it('refuses a code that is not exactly 8 characters', () => {
    expect(confirmEmailRequest('?username=ada%40example.com&code=ABCD123')).toBeNull();
    expect(confirmEmailRequest('?username=ada%40example.com&code=ABCD12345')).toBeNull();
    expect(confirmEmailRequest('?username=ada%40example.com')).toBeNull();
  });
});

describe('auth addresses', () => {
  it('builds the login notices and the confirmation page address', () => {
    expect(loginWith.registered('ada+x@example.com')).toBe('/login?username=ada%2Bx%40example.com');
    expect(loginWith.invalidCode).toBe('/login?code=1');
    expect(loginWith.reset).toBe('/login?reset=1');
    expect(loginNotice(loginWith.registered('a@b.c').split('?')[1]!)).toBe('registered');
    expect(paths.confirmRegistration('ada@example.com')).toBe(
      '/confirm_registration?username=ada%40example.com',
    );
  });
});

describe('afterLogin', () => {
  it('returns to the connect page with its whole query', () => {
    const here = '/connect/extension?challenge=abc&state=xyz&browser=Chrome';
    const login = paths.loginThen(here);
    expect(login.startsWith('/login?next=')).toBe(true);
    expect(afterLogin(login.slice('/login'.length))).toBe(here);
  });

  it('goes to the projects without a next, or with one that leaves the dashboard', () => {
    expect(afterLogin('')).toBe('/profile');
    for (const next of [
      'https://evil.example/',
      '//evil.example/x',
      '/\\evil.example',
      'javascript:alert(1)',
    ]) {
      expect(afterLogin(`?next=${encodeURIComponent(next)}`)).toBe('/profile');
    }
  });

  it('keeps a safe next through registration, confirmation and the sign-in notice, and drops a hostile one', () => {
    const here = '/connect/extension?challenge=abc&state=xyz&browser=Firefox';
    const registration = paths.registrationThen(here);
    expect(safeNext(registration.slice('/registration'.length))).toBe(here);
    const confirm = paths.confirmRegistration('ada@example.com', here);
    expect(confirm.startsWith('/confirm_registration?username=ada%40example.com&next=')).toBe(true);
    expect(safeNext(confirm.slice('/confirm_registration'.length))).toBe(here);
    const login = loginWith.registered('ada@example.com', here);
    expect(loginNotice(login.split('?')[1]!)).toBe('registered');
    expect(afterLogin(stripLoginNoticeParams(login.slice('/login'.length)))).toBe(here);
    for (const hostile of [
      'https://evil.example/',
      '//evil.example/x',
      '/\\evil.example',
      'javascript:alert(1)',
    ]) {
      expect(paths.registrationThen(hostile)).toBe('/registration');
      expect(paths.confirmRegistration('ada@example.com', hostile)).toBe(
        '/confirm_registration?username=ada%40example.com',
      );
      expect(loginWith.registered('ada@example.com', hostile)).toBe('/login?username=ada%40example.com');
      expect(withNext(hostile)).toBe('');
      expect(safeNext(`?next=${encodeURIComponent(hostile)}`)).toBeNull();
    }
  });

  it('builds the done page’s address the extension reads', () => {
    expect(paths.connectExtensionDone({ code: 'c-1', state: 's_2' })).toBe(
      '/connect/extension/done?code=c-1&state=s_2',
    );
    expect(paths.connectExtensionDone({ error: 'denied', state: 's' })).toBe(
      '/connect/extension/done?error=denied&state=s',
    );
  });
});
