/**
 * Which vendors `npm start` fakes (README "Vendor fakes"): every one the developer did not configure; one
 * with any of its settings in the environment or `.env` keeps them and talks to the real service. The
 * functions' settings, the screens' "fake" notes and the banner follow the same choice.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { VENDOR_FAKES_VARIABLE } from '#runtime/config';
import { realVendorsOf, startVendorFakes, type VendorFakes, vendorBanner } from '../../../lib/local/vendors';

let fakes: VendorFakes | undefined;
afterEach(async () => {
  await fakes?.stop();
  fakes = undefined;
});

describe('the vendor fakes of npm start', () => {
  it('leaves a vendor with any real setting on the real service, and only it', () => {
    expect(realVendorsOf({})).toEqual([]);
    expect(realVendorsOf({ SLACK_CLIENT_ID: '123.456' })).toEqual(['slack']);
    expect(
      realVendorsOf({ ASANA_CLIENT_SECRET: 's', LINEAR_API_URL: 'https://api.linear.app/graphql' }),
    ).toEqual(['asana', 'linear']);
    expect(realVendorsOf({ GITHUB_API_URL: 'https://ghe.example/api/v3', GITLAB_URL: '  ' })).toEqual([
      'github',
    ]);
    // Settings that are not a vendor's choose nothing.
    expect(realVendorsOf({ STRIPE_SECRET_KEY: 'sk_test', PORT: '3000' })).toEqual([]);
  });

  it('points the functions at the fakes of the others only, and the banner says which is which', async () => {
    const configured = { SLACK_CLIENT_ID: '123.456', SLACK_CLIENT_SECRET: 'real-secret' };
    fakes = await startVendorFakes({ real: realVendorsOf(configured) });
    expect(Object.keys(fakes.env).filter((k) => k.startsWith('SLACK_'))).toEqual([]);
    expect(fakes.env).toMatchObject({
      GITLAB_URL: fakes.gitlab.url,
      GITHUB_API_URL: fakes.github.apiUrl,
      ASANA_CLIENT_ID: fakes.asana.clientId,
      LINEAR_API_URL: fakes.linear.apiUrl,
    });
    expect(Object.keys(JSON.parse(fakes.env[VENDOR_FAKES_VARIABLE] ?? '{}')).sort()).toEqual([
      'asana',
      'azure',
      'clickup',
      'discord',
      'github',
      'gitlab',
      'jira',
      'linear',
      'teams',
      'trello',
      'webhooks',
    ]);
    const banner = vendorBanner(fakes, configured).join('\n');
    expect(banner).not.toContain(`Slack ${fakes.slack.url}`);
    expect(banner).toContain(`Asana ${fakes.asana.url}`);
    expect(banner).toContain(
      'Real vendors   the real services, as configured: Slack (SLACK_CLIENT_ID, SLACK_CLIENT_SECRET set)',
    );
  });

  it('fakes every vendor when none is configured, with no "Real vendors" line', async () => {
    fakes = await startVendorFakes({ real: realVendorsOf({}) });
    expect(fakes.env).toMatchObject({ SLACK_CLIENT_ID: fakes.slack.clientId, GITLAB_URL: fakes.gitlab.url });
    const banner = vendorBanner(fakes).join('\n');
    for (const url of [fakes.gitlab.url, fakes.jira.url, fakes.slack.url, fakes.asana.url, fakes.github.url])
      expect(banner).toContain(url);
    expect(banner).not.toContain('Real vendors');
  });
});
