/**
 * `npm run demo -- <projectId>` (lib/local/demo.ts, README "The whole loop"): a customer's page on another
 * origin carrying the project's install snippet, where the widget's calls are accepted for a project with
 * the domain `localhost`, so a report sent from it reaches the dashboard.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { type DemoServer, startDemo } from '../../lib/local/demo';
import { setUpTestStack } from '../support/stack-fixture';
import { signedIn } from '../support/users';
import { fileReport } from '../support/widget';

const stack = setUpTestStack({ cheapCosts: false });
let demo: DemoServer | undefined;

afterAll(async () => {
  await demo?.stop();
});

describe('the demo page', () => {
  it("serves the project's snippet on another origin, and a report sent from there reaches the list", async () => {
    const { client } = await signedIn(stack.url);
    const created = await client.post('/api/client/website', { name: 'Demo shop', url: 'localhost' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = (created.body as { msg: { id: string } }).msg.id;

    demo = await startDemo({ port: 0, appUrl: stack.url, projectId: id });
    expect(new URL(demo.url).origin).not.toBe(new URL(stack.url).origin);
    const page = await fetch(`${demo.url}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await page.text();
    // The snippet as Configuration → Installation shows it.
    const src = `${stack.url}/api/website/${id}/code`;
    expect(html).toContain(`<script async src="${src}"></script>`);
    const loader = await fetch(src, { headers: { referer: `${demo.url}/` } });
    expect(loader.status).toBe(200);
    expect(loader.headers.get('content-type')).toMatch(/javascript/);

    // A two-view app (Shop and Checkout, pushState) whose payment fails on purpose: a request answered 500.
    expect(html).toContain('history.pushState');
    expect(html).toMatch(/<input type="password"/);
    expect((await fetch(`${demo.url}/checkout`)).status).toBe(200);
    const pay = await fetch(`${demo.url}/api/pay`, { method: 'POST', body: '{}' });
    expect(pay.status).toBe(500);
    expect((await fetch(`${demo.url}/`, { method: 'PUT' })).status).toBe(405);

    // The widget's calls from the demo page's origin are the project's own domain.
    const number = await fileReport(stack.url, id, demo.url, {
      fields: { msg: 'The Pay button on the demo page does nothing.', href: `${demo.url}/` },
    });
    const list = await client.get(`/api/client/website/${id}/request`);
    expect(
      (list.body as { msg: { requests: { number: number }[] } }).msg.requests.map((r) => r.number),
    ).toEqual([number]);
  });
});
