/**
 * A customer's page for trying the widget locally (`npm run demo -- <projectId>`, README "The whole loop"):
 * a small shop page carrying the project's install snippet, served from another origin than the dashboard
 * (`http://localhost:<port>`), as a customer's site is. Give the project the domain `localhost`.
 */
import { createServer, type Server } from 'node:http';
import { installSnippet } from '../../web/src/projects/model';
import { send } from './http-reply';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The page: some text to report about, and the snippet exactly as Configuration → Installation shows it. */
export function demoPage(appUrl: string, projectId: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>My shop (Snag demo page)</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;color:#1f2933}</style>
</head>
<body>
<h1>My shop</h1>
<p>A page of a customer's website, with the widget of project <code>${escapeHtml(projectId)}</code> from
<code>${escapeHtml(appUrl)}</code>. Press <em>Feedback</em>, describe a problem, add a screenshot and send it;
the issue then shows in the dashboard.</p>
<p>Cart: 2 items, 49.90 €. <button type="button">Pay</button></p>
${installSnippet(appUrl, projectId)}
</body>
</html>
`;
}

export interface DemoServer {
  url: string;
  server: Server;
  stop(): Promise<void>;
}

/** Serves the page at every path on `localhost:<port>` (0: a free port), loopback only. */
export function startDemo(opts: { port: number; appUrl: string; projectId: string }): Promise<DemoServer> {
  const page = demoPage(opts.appUrl, opts.projectId);
  const server = createServer((req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      send(res, 405, { allow: 'GET, HEAD' }, '');
      return;
    }
    send(
      res,
      200,
      { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
      page,
      req.method === 'HEAD',
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : opts.port;
      resolve({
        url: `http://localhost:${port}`,
        server,
        stop: () => new Promise<void>((done) => server.close(() => done())),
      });
    });
  });
}
