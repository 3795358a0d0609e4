/**
 * Device data (SPEC.md section 3): browser and version, OS and version, device type and screen size.
 * `navigator.userAgentData` (Chromium browsers) is preferred where it names the browser; its high-entropy
 * values need a promise, so the synchronous API uses the low-entropy brands plus the UA string, which
 * `parseUserAgent` (a pure function, unit-tested with real strings) reads everywhere else.
 */
import type { DeviceData, DeviceType } from '#contracts/intake';

export interface ParsedAgent {
  browser: string;
  browserVersion: string;
  os: string;
  osVersion: string;
  deviceType: DeviceType;
}

/** Browser tokens, most specific first: Edge, Opera and Samsung Internet also say "Chrome" and "Safari". */
const BROWSERS: [name: string, pattern: RegExp][] = [
  ['Edge', /\b(?:Edg|EdgA|EdgiOS|Edge)\/([\d.]+)/],
  ['Opera', /\b(?:OPR|OPX|OPT)\/([\d.]+)/],
  ['Opera', /\bOpera\/.*\bVersion\/([\d.]+)/],
  ['Samsung Internet', /\bSamsungBrowser\/([\d.]+)/],
  ['Yandex Browser', /\bYaBrowser\/([\d.]+)/],
  ['Vivaldi', /\bVivaldi\/([\d.]+)/],
  ['Firefox', /\b(?:Firefox|FxiOS)\/([\d.]+)/],
  ['Chrome', /\b(?:Chrome|CriOS)\/([\d.]+)/],
  ['Safari', /\bVersion\/([\d.]+).*\bSafari\//],
  ['Internet Explorer', /\b(?:MSIE |rv:)([\d.]+)\).*Trident|MSIE ([\d.]+)/],
];

function browserOf(ua: string): { browser: string; browserVersion: string } {
  for (const [browser, pattern] of BROWSERS) {
    const m = pattern.exec(ua);
    if (m) return { browser, browserVersion: m[1] ?? m[2] ?? '' };
  }
  return { browser: 'Unknown', browserVersion: '' };
}

const dotted = (v: string | undefined) => (v ?? '').replace(/_/g, '.');

/** Windows NT kernel versions as people name them (NT 10.0 covers Windows 10 and 11). */
const WINDOWS: Record<string, string> = {
  '10.0': '10',
  '6.3': '8.1',
  '6.2': '8',
  '6.1': '7',
  '6.0': 'Vista',
  '5.1': 'XP',
};

/** OS patterns, most specific first (iOS and Android UAs also mention Mac OS X and Linux). */
const SYSTEMS: [name: string, pattern: RegExp, version?: (v: string) => string][] = [
  ['iOS', /\b(?:iPhone|iPad|iPod)\b.*?\bOS ([\d_]+)/, dotted],
  ['Android', /\bAndroid(?: ([\d.]+))?/],
  ['Windows', /\bWindows NT ([\d.]+)/, (v) => WINDOWS[v] ?? v],
  ['macOS', /\bMac OS X ([\d_.]+)/, dotted],
  ['Chrome OS', /\bCrOS \S+ ([\d.]+)/],
  ['Linux', /\bLinux\b()/],
];

function osOf(ua: string): { os: string; osVersion: string } {
  for (const [os, pattern, version = (v: string) => v] of SYSTEMS) {
    const m = pattern.exec(ua);
    if (m) return { os, osVersion: version(m[1] ?? '') };
  }
  return { os: 'Unknown', osVersion: '' };
}

function typeOf(ua: string): DeviceType {
  if (/\biPad\b|\bTablet\b|\bKindle\b|\bSilk\//.test(ua)) return 'Tablet';
  // Android tablets leave "Mobile" out of their UA; phones include it.
  if (/\bAndroid\b/.test(ua) && !/\bMobile\b/.test(ua)) return 'Tablet';
  if (/\bMobi|\biPhone\b|\biPod\b|\bAndroid\b/.test(ua)) return 'Mobile';
  return 'Desktop';
}

/** Reads a User-Agent string. Unknown parts are 'Unknown' or ''; the device type defaults to Desktop. */
export function parseUserAgent(ua: string): ParsedAgent {
  return { ...browserOf(ua), ...osOf(ua), deviceType: typeOf(ua) };
}

/** The subset of `navigator.userAgentData` (Chromium) used here. */
export interface UaData {
  brands?: { brand: string; version: string }[];
  mobile?: boolean;
  platform?: string;
}

/** Brand names in userAgentData, as they appear in reports. */
const BRANDS: Record<string, string> = {
  'Microsoft Edge': 'Edge',
  'Google Chrome': 'Chrome',
  Opera: 'Opera',
  'Samsung Internet': 'Samsung Internet',
  Yandex: 'Yandex Browser',
  Chromium: 'Chrome',
};

/**
 * Combines the UA string with `userAgentData` where present: its brand list names Edge and Opera
 * reliably (the UA string can be frozen or spoofed), and `mobile` decides phones. The OS version stays
 * from the UA string (userAgentData has it only asynchronously).
 */
export function describeAgent(ua: string, data?: UaData): ParsedAgent {
  const parsed = parseUserAgent(ua);
  if (!data?.brands?.length) return parsed;
  // Prefer a specific brand over "Chromium"; ignore GREASE entries ("Not A;Brand").
  const known = data.brands.filter((b) => BRANDS[b.brand]);
  const best = known.find((b) => b.brand !== 'Chromium' && b.brand !== 'Google Chrome') ?? known[0];
  if (best) {
    const browser = BRANDS[best.brand]!;
    // The UA string's full version when it names the same browser; the brand's major version otherwise.
    parsed.browserVersion = parsed.browser === browser ? parsed.browserVersion : best.version;
    parsed.browser = browser;
  }
  if (data.mobile && parsed.deviceType === 'Desktop') parsed.deviceType = 'Mobile';
  return parsed;
}

export function deviceData(win: Window = window): DeviceData {
  const nav = win.navigator as Navigator & { userAgentData?: UaData };
  const agent = describeAgent(nav.userAgent, nav.userAgentData);
  // iPadOS 13+ reports a Mac; a Mac has no touch screen.
  if (agent.os === 'macOS' && nav.maxTouchPoints > 1) {
    agent.os = 'iPadOS';
    agent.deviceType = 'Tablet';
  }
  return { ...agent, screenResolution: `${win.screen.width}x${win.screen.height}` };
}
