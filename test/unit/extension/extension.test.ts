/**
 * The browser extension's own rules (extension/lib): the server addresses it accepts, the permission it
 * asks for, the project it preselects for a page, the PKCE challenge it sends, and the widget's report
 * under the v1 names. The browser side runs in test/e2e/extension.test.ts.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { endsConnection } from '../../../extension/lib/api';
import { challengeOf, newState, newVerifier } from '../../../extension/lib/pkce';
import {
  DEFAULT_SERVER,
  hostPattern,
  pageOrigin,
  parseServer,
  preselectProject,
} from '../../../extension/lib/server';
import { toV1Issue } from '../../../extension/lib/to-v1';
import { v1IssueCreateBody } from '../../../functions/contracts/api-v1';
import { extensionConnectQuery, extensionTokenBody } from '../../../functions/contracts/extension';
import type { ReportInput } from '../../../functions/contracts/intake-schemas';

describe('server address', () => {
  it('accepts an http(s) origin, with or without the slash, and keeps the origin only', () => {
    expect(parseServer('http://localhost:3000')).toBe('http://localhost:3000');
    expect(parseServer(' https://Snag.Example.com/ ')).toBe('https://snag.example.com');
    expect(parseServer('https://snag.example.com:8443')).toBe('https://snag.example.com:8443');
    expect(parseServer(DEFAULT_SERVER)).toBe(DEFAULT_SERVER);
  });

  it('refuses what is not an origin a browser could call', () => {
    for (const bad of [
      '',
      'snag.example.com',
      'ftp://snag.example.com',
      'javascript:alert(1)',
      'https://user:pw@snag.example.com',
      'https://snag.example.com/app',
      'https://snag.example.com/?x=1',
      'https://snag.example.com/#top',
      'https://exa mple.com',
      'http://',
    ]) {
      expect(parseServer(bad), bad).toBeNull();
    }
  });

  it('asks for the host without the port (match patterns have none)', () => {
    expect(hostPattern('http://localhost:3000')).toBe('http://localhost/*');
    expect(hostPattern('https://snag.example.com')).toBe('https://snag.example.com/*');
  });

  it('reports on web pages only', () => {
    expect(pageOrigin('https://shop.example.com/cart?x=1')).toBe('https://shop.example.com');
    expect(pageOrigin('chrome://extensions/')).toBeNull();
    expect(pageOrigin('about:blank')).toBeNull();
    expect(pageOrigin(undefined)).toBeNull();
  });
});

describe('project preselection', () => {
  const projects = [
    { id: 'a', name: 'Acme', domain: 'acme.test' },
    { id: 'b', name: 'Acme shop', domain: 'shop.acme.test' },
    { id: 'c', name: 'Other', domain: 'www.other.test' },
  ];

  it('picks the project whose domain matches the host, the most specific first, subdomains included', () => {
    expect(preselectProject('acme.test', projects, undefined)).toBe('a');
    expect(preselectProject('blog.acme.test', projects, undefined)).toBe('a');
    expect(preselectProject('shop.acme.test', projects, undefined)).toBe('b');
    expect(preselectProject('eu.shop.acme.test', projects, undefined)).toBe('b');
    // A project for www.other.test covers the bare domain too, as the widget's loader does.
    expect(preselectProject('other.test', projects, undefined)).toBe('c');
  });

  it('leaves the choice to the user where nothing matches', () => {
    expect(preselectProject('notacme.test', projects, undefined)).toBeUndefined();
    expect(preselectProject('localhost', projects, undefined)).toBeUndefined();
  });

  it('remembers the choice per site while the project is still listed', () => {
    expect(preselectProject('shop.acme.test', projects, 'c')).toBe('c');
    expect(preselectProject('shop.acme.test', projects, 'gone')).toBe('b');
  });
});

describe('PKCE', () => {
  it('sends SHA-256 of the verifier in base64url, as the connect page expects', async () => {
    const verifier = newVerifier();
    const challenge = await challengeOf(verifier);
    expect(challenge).toBe(createHash('sha256').update(verifier).digest('base64url'));
    const state = newState();
    expect(extensionConnectQuery.safeParse({ challenge, state, browser: 'Chromium' }).success).toBe(true);
    expect(extensionTokenBody.safeParse({ code: 'c'.repeat(43), verifier }).success).toBe(true);
  });

  it('makes a new verifier and state every time', () => {
    expect(newVerifier()).not.toBe(newVerifier());
    expect(newState()).not.toBe(newState());
  });
});

describe('a revoked or expired token', () => {
  const answer = (status: number, challenge?: string) => ({
    status,
    headers: new Headers(challenge ? { 'www-authenticate': challenge } : {}),
  });

  it('ends the connection only on 401 with invalid_token', () => {
    expect(endsConnection(answer(401, 'Bearer realm="snag", error="invalid_token"'))).toBe(true);
    expect(endsConnection(answer(401))).toBe(false);
    expect(endsConnection(answer(403, 'Bearer realm="snag", error="invalid_token"'))).toBe(false);
    expect(endsConnection(answer(401, 'Bearer realm="snag", error="insufficient_scope"'))).toBe(false);
  });
});

describe('the widget report as a v1 issue', () => {
  const key = (kind: string, n: number) =>
    `pending/0d8f2b7e-6b0a-4a8c-9f8b-7a6c5d4e3f2${n}/${kind}/5b1e3c2a-1d4f-4e6a-8b7c-9d0e1f2a3b4${n}.png`;
  const report: ReportInput = {
    msg: 'The pay button does nothing',
    username: 'ada@example.com',
    language: 'de',
    href: 'https://shop.example.com/checkout',
    browser: 'Chrome',
    browserVersion: '150',
    os: 'Linux',
    osVersion: '',
    deviceType: 'Desktop',
    screenResolution: '1280x800',
    customFields: [{ name: 'Plan', value: 'Pro' }],
    screenshots: [{ key: key('screenshot', 1), type: 'png' }],
    files: [{ key: key('file', 2), original_name: 'trace.txt' }],
    logs: [{ t: 1, level: 'error', kind: 'console', msg: 'TypeError: pay is not a function' }],
    steps: [{ t: 2, kind: 'click', label: 'button "Pay"' }],
    sentAt: 1_790_000_000_000,
  };

  it('keeps every field under its v1 name, and the v1 schema accepts it', () => {
    const body = toV1Issue(report);
    expect(body).toMatchObject({
      description: report.msg,
      reporterEmail: 'ada@example.com',
      pageUrl: report.href,
      language: 'de',
      device: { browser: 'Chrome', browserVersion: '150', os: 'Linux', screenResolution: '1280x800' },
      customFields: report.customFields,
      screenshots: report.screenshots,
      files: [{ key: key('file', 2), name: 'trace.txt' }],
      logs: report.logs,
      steps: report.steps,
      sentAt: report.sentAt,
    });
    const parsed = v1IssueCreateBody.safeParse(body);
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
  });

  it('leaves the reporter address out when the form had none (the member is the reporter)', () => {
    const body = toV1Issue({ ...report, username: '' });
    expect(body).not.toHaveProperty('reporterEmail');
    expect(v1IssueCreateBody.safeParse(body).success).toBe(true);
  });
});
