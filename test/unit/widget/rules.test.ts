import { describe, expect, it } from 'vitest';
import { hostMatches } from '#contracts/domains';
import { isPhone, launcherAllowed, PHONE_MAX_SIDE } from '../../../widget/src/rules';

const project = { host: 'www.shop.example', wildcard: false, testMode: false, hideOnMobile: false };
const page = (host: string, search = '', phone = false) => ({ host, search, phone });

describe('launcherAllowed (when the loader shows the launcher)', () => {
  it('follows the shared domain rule: the project host, its bare domain and subdomains', () => {
    for (const host of ['www.shop.example', 'shop.example', 'eu.shop.example', 'WWW.SHOP.EXAMPLE.']) {
      expect(launcherAllowed(project, page(host)), host).toBe(true);
      expect(hostMatches(host, project.host, false)).toBe(true);
    }
    for (const host of ['other.example', 'shop.example.evil.test', 'notshop.example', 'example']) {
      expect(launcherAllowed(project, page(host)), host).toBe(false);
    }
  });

  it('shows on any host with the wildcard domain', () => {
    expect(launcherAllowed({ ...project, wildcard: true }, page('anything.test'))).toBe(true);
  });

  it('in test mode, needs snag=1 in the query', () => {
    const testing = { ...project, testMode: true };
    expect(launcherAllowed(testing, page('shop.example'))).toBe(false);
    expect(launcherAllowed(testing, page('shop.example', '?snag=0'))).toBe(false);
    expect(launcherAllowed(testing, page('shop.example', '?snag=true'))).toBe(false);
    expect(launcherAllowed(testing, page('shop.example', '?snag=1'))).toBe(true);
    expect(launcherAllowed(testing, page('shop.example', '?a=b&snag=1'))).toBe(true);
    // Test mode never widens the domain rule.
    expect(launcherAllowed(testing, page('other.example', '?snag=1'))).toBe(false);
  });

  it('hides on phones only when the project says so', () => {
    expect(launcherAllowed(project, page('shop.example', '', true))).toBe(true);
    expect(launcherAllowed({ ...project, hideOnMobile: true }, page('shop.example', '', true))).toBe(false);
    expect(launcherAllowed({ ...project, hideOnMobile: true }, page('shop.example', '', false))).toBe(true);
  });
});

describe('isPhone', () => {
  const win = (coarse: boolean, width: number, height: number) => ({
    matchMedia: (query: string) => ({ matches: query === '(pointer: coarse)' && coarse }) as MediaQueryList,
    screen: { width, height } as Screen,
  });

  it('is a touch-first device whose screen has a short side up to 767 px, in either orientation', () => {
    expect(isPhone(win(true, 390, 844))).toBe(true);
    expect(isPhone(win(true, 844, 390))).toBe(true);
    expect(isPhone(win(true, PHONE_MAX_SIDE, 1000))).toBe(true);
  });

  it('is not a tablet, nor a desktop with a narrow window or a small screen', () => {
    expect(isPhone(win(true, 768, 1024))).toBe(false);
    expect(isPhone(win(false, 390, 844))).toBe(false);
    expect(isPhone(win(false, 1280, 720))).toBe(false);
  });
});
