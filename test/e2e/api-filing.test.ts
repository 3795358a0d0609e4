/**
 * An issue filed through the public API (issue 34) as the dashboard shows it, in Chromium against the built
 * dashboard and the local stack: a script's issue (a team token, with a screenshot) reads "Filed: By Ada
 * Lovelace via API token CI" beside its reporter and "… via API token CI reported the issue" in its activity;
 * one filed with the browser extension reads "via extension" (German at 390 px: "über die
 * Browser-Erweiterung"). axe-core clean at both sizes.
 */
import { describe, expect, it } from 'vitest';
import { createLogger } from '#runtime/log';
import { fileApiIssue } from '../../functions/issues/api-filing';
import { axeFindings } from '../support/axe';
import { setUpBrowserSuite, shot, signedInTab } from '../support/browser';
import { png } from '../support/png';
import { userIdOf } from '../support/webteam';
import { postForm, type UploadForm } from '../support/widget';

const suite = setUpBrowserSuite();
const phone = { width: 390, height: 844 };

async function v1(token: string, path: string, body: unknown) {
  const res = await fetch(new URL(path, suite.stack.url), {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = (await res.json()) as { status: string; msg: Record<string, unknown> };
  if (answer.status !== 'success') throw new Error(`${path}: ${res.status} ${JSON.stringify(answer)}`);
  return answer.msg;
}

describe('an issue filed through the API, on its page', () => {
  it('names the token it came through beside the reporter and in the activity (English, 1280 px)', async () => {
    const { page, tab, api, email } = await signedInTab(suite);
    const site = await api.post('/api/client/website', { name: 'Shop', url: 'shop.example' });
    const projectId = (site.body as { msg: { id: string } }).msg.id;
    const teamId = await userIdOf(email);
    const made = await api.post(`/api/client/team/${teamId}/tokens`, {
      name: 'CI',
      scopes: ['issues:create'],
    });
    const { token } = (made.body as { msg: { token: string } }).msg;

    const shotBytes = png(320, 200, [40, 120, 200], true);
    const form = (await v1(token, `/api/v1/projects/${projectId}/uploads`, {
      kind: 'screenshot',
      type: 'image/png',
      size: shotBytes.length,
    })) as unknown as UploadForm;
    expect(await postForm(form, shotBytes)).toBeLessThan(300);
    const { number } = await v1(token, `/api/v1/projects/${projectId}/issues`, {
      title: 'Checkout button does nothing',
      description: 'Found by the nightly end-to-end run.',
      reporterEmail: 'qa@shop.example',
      pageUrl: 'https://shop.example/checkout',
      screenshots: [{ key: form.key, type: 'png' }],
    });

    await page.goto(`/profile/site/${projectId}/ticket/${number}`);
    const details = page.locator('[aria-labelledby="issue-details"]');
    await details.getByText('By Ada Lovelace via API token CI').waitFor();
    expect(await details.innerText()).toContain('qa@shop.example');
    await page
      .getByTestId('activity-line')
      .getByText('Ada Lovelace via API token CI reported the issue')
      .waitFor();
    expect([await axeFindings(page)]).toEqual([[]]);
    await shot(page, 'api-filed-en-1280');
    expect(tab.errors).toEqual([]);
  });

  it('says "via extension" for the member who filed it with the browser extension (German, 390 px)', async () => {
    const { page, tab, api, email } = await signedInTab(suite, { viewport: phone, locale: 'de-DE' });
    const site = await api.post('/api/client/website', { name: 'Laden', url: 'shop.example' });
    const projectId = (site.body as { msg: { id: string } }).msg.id;
    const userId = await userIdOf(email);
    // The extension's caller as the pipeline hands it over (contracts/token-caller.ts): the member himself.
    const filed = await fileApiIssue(
      {
        id: 'ext-e2e-0001',
        kind: 'extension',
        name: 'Chrome',
        creatorName: 'Ada Lovelace',
        principal: userId,
      },
      projectId,
      {
        title: 'Menü überdeckt das Logo',
        description: 'Auf dem Telefon überdeckt das Menü das Logo.',
        reporterEmail: '',
        pageUrl: 'https://shop.example/',
        device: {
          browser: 'Chrome',
          browserVersion: '131',
          os: 'Android',
          osVersion: '15',
          deviceType: 'Mobile',
          screenResolution: '390x844',
        },
        customFields: [],
        screenshots: [],
        files: [],
        logs: [],
        steps: [],
      },
      undefined,
      { log: createLogger(), correlationId: '4f0c2d8e-5a3b-4c1d-9e7f-6a5b4c3d2e1f' },
    );
    await page.goto(`/profile/site/${projectId}/ticket/${filed.number}`);
    const details = page.locator('[aria-labelledby="issue-details"]');
    await details.getByText('Von Ada Lovelace über die Browser-Erweiterung').waitFor();
    await page
      .getByTestId('activity-line')
      .getByText('Ada Lovelace über die Browser-Erweiterung hat die Meldung erstellt')
      .waitFor();
    expect([await axeFindings(page)]).toEqual([[]]);
    await shot(page, 'api-filed-de-390');
    expect(tab.errors).toEqual([]);
  });
});
