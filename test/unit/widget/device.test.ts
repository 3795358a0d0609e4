import { describe, expect, it } from 'vitest';
import { describeAgent, parseUserAgent } from '../../../widget/src/capture/device';

// Real User-Agent strings, as these browsers send them.
const agents = {
  chromeWindows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  edgeWindows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.2592.87',
  firefoxLinux: 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0',
  firefoxMac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:127.0) Gecko/20100101 Firefox/127.0',
  safariMac:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  safariIphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  chromeIphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0.6478.54 Mobile/15E148 Safari/604.1',
  ipad: 'Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1',
  samsung:
    'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36',
  androidChrome:
    'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.6478.71 Mobile Safari/537.36',
  androidTablet:
    'Mozilla/5.0 (Linux; Android 13; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  opera:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/125.0.0.0 Safari/537.36 OPR/111.0.0.0',
  windows7: 'Mozilla/5.0 (Windows NT 6.1; Win64; x64; rv:115.0) Gecko/20100101 Firefox/115.0',
};

describe('parseUserAgent', () => {
  it.each([
    ['chromeWindows', 'Chrome', '126.0.0.0', 'Windows', '10', 'Desktop'],
    ['edgeWindows', 'Edge', '126.0.2592.87', 'Windows', '10', 'Desktop'],
    ['firefoxLinux', 'Firefox', '127.0', 'Linux', '', 'Desktop'],
    ['firefoxMac', 'Firefox', '127.0', 'macOS', '14.5', 'Desktop'],
    ['safariMac', 'Safari', '17.5', 'macOS', '10.15.7', 'Desktop'],
    ['safariIphone', 'Safari', '17.5', 'iOS', '17.5.1', 'Mobile'],
    ['chromeIphone', 'Chrome', '126.0.6478.54', 'iOS', '17.5', 'Mobile'],
    ['ipad', 'Safari', '16.6', 'iOS', '16.6', 'Tablet'],
    ['samsung', 'Samsung Internet', '25.0', 'Android', '14', 'Mobile'],
    ['androidChrome', 'Chrome', '126.0.6478.71', 'Android', '10', 'Mobile'],
    ['androidTablet', 'Chrome', '126.0.0.0', 'Android', '13', 'Tablet'],
    ['opera', 'Opera', '111.0.0.0', 'Windows', '10', 'Desktop'],
    ['windows7', 'Firefox', '115.0', 'Windows', '7', 'Desktop'],
  ] as const)('%s', (key, browser, browserVersion, os, osVersion, deviceType) => {
    expect(parseUserAgent(agents[key])).toEqual({ browser, browserVersion, os, osVersion, deviceType });
  });

  it('falls back to Unknown and Desktop', () => {
    expect(parseUserAgent('curl/8.5.0')).toEqual({
      browser: 'Unknown',
      browserVersion: '',
      os: 'Unknown',
      osVersion: '',
      deviceType: 'Desktop',
    });
    expect(parseUserAgent('')).toMatchObject({ browser: 'Unknown', deviceType: 'Desktop' });
  });
});

describe('describeAgent with navigator.userAgentData', () => {
  const grease = { brand: 'Not/A)Brand', version: '8' };

  it('takes the brand from userAgentData and the full version from the UA string', () => {
    const data = {
      brands: [grease, { brand: 'Chromium', version: '126' }, { brand: 'Microsoft Edge', version: '126' }],
      mobile: false,
      platform: 'Windows',
    };
    // A UA string reduced to Chrome's (as with some privacy settings) still reports Edge.
    expect(describeAgent(agents.chromeWindows, data)).toMatchObject({
      browser: 'Edge',
      browserVersion: '126',
    });
    expect(describeAgent(agents.edgeWindows, data)).toMatchObject({
      browser: 'Edge',
      browserVersion: '126.0.2592.87',
    });
  });

  it('marks a mobile device', () => {
    const data = { brands: [{ brand: 'Google Chrome', version: '126' }], mobile: true, platform: 'Android' };
    expect(describeAgent(agents.chromeWindows, data)).toMatchObject({
      browser: 'Chrome',
      deviceType: 'Mobile',
    });
  });

  it('keeps the UA string reading when userAgentData has no brands', () => {
    expect(describeAgent(agents.firefoxLinux, { brands: [] })).toEqual(parseUserAgent(agents.firefoxLinux));
  });
});
