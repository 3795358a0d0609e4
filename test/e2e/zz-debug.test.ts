import { appendFileSync } from 'node:fs';

const log = (...a: unknown[]) => appendFileSync('/tmp/dbg.log', `${a.map(String).join(' ')}\n`);

import { expect, it } from 'vitest';
import { setUpBrowserSuite } from '../support/browser';
import { signedIn } from '../support/users';

const suite = setUpBrowserSuite({ vendorFakes: true });

it('debug', async () => {
  const { client: api, email } = await signedIn(suite.stack.url);
  const created = await api.post('/api/client/website', { name: 'Shop', url: 'shop.example' });
  const id = (created.body as { msg: { id: string } }).msg.id;
  await api.post('/api/dev/plan', { username: email, plan: 'BASIC_PLAN', days: 30 });
  const t = await suite.newTab({});
  await t.context.addCookies(
    [...api.cookies].map(([name, value]) => ({ name, value, url: suite.stack.url })),
  );
  const page = t.page;
  page.on('console', (m) => log('CONSOLE', m.type(), m.text()));
  page.on('pageerror', (e) => log('PAGEERROR', e.message));
  page.on('response', async (r) => {
    if (r.url().includes('/api/client/integration'))
      log('RESP', r.status(), r.request().method(), r.request().postData(), (await r.text()).slice(0, 300));
  });
  await page.goto(`/profile/integrations/${id}/webhooks`);
  await page.getByRole('switch', { name: 'Active' }).check({ force: true });
  await page.getByLabel('URL').fill('https://hooks.shop.example/snag');
  await page.getByLabel('Token').fill('whsec-0123456789abcdef');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.waitForTimeout(3000);
  expect(1).toBe(1);
});
