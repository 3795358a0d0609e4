/**
 * A customer's page for trying the widget locally (`npm run demo -- <projectId>`, README "The whole loop"):
 * a small shop page carrying the project's install snippet, served from another origin than the dashboard
 * (`http://localhost:<port>`), as a customer's site is. Give the project the domain `localhost`.
 */
import { createServer, type Server } from 'node:http';
import { installSnippet } from '../../web/src/projects/model';
import { send } from './http-reply';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The page: a small single-page shop of two views, Shop (`/`) and Checkout (`/checkout`), switched with
 * pushState and popstate as a customer's app does, so the widget's steps and replay have something to
 * show. Paying fails on purpose: the payment call answers 500 and the page's own code then throws, which
 * puts a failed request and a console error on the report's timeline. The checkout form has an email,
 * card and password field (what the widget must never send) and a masked element (`data-snag-mask`).
 */
export function demoPage(appUrl: string, projectId: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>My shop (Snag demo page)</title>
<style>
body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;color:#1f2933}
nav a{margin-right:1rem}label{display:block;margin:.5rem 0}input{display:block;font:inherit;padding:.25rem}
[hidden]{display:none}
</style>
</head>
<body>
<nav aria-label="Shop"><a href="/">Shop</a><a href="/checkout">Checkout</a></nav>
<main>
<section id="shop">
<h1>My shop</h1>
<p>A page of a customer's website, with the widget of project <code>${escapeHtml(projectId)}</code> from
<code>${escapeHtml(appUrl)}</code>. Add something to the cart, go to the checkout and pay: it fails. Then press
<em>Feedback</em>, describe the problem and send it; the issue shows in the dashboard with the steps, the error
and (on a paid plan with replay on) the last minute as a replay.</p>
<ul>
<li>Coffee beans, 1 kg: 24.95 € <button type="button" data-item="Coffee beans">Add to cart</button></li>
<li>Espresso cups, set of 2: 24.95 € <button type="button" data-item="Espresso cups">Add to cart</button></li>
</ul>
<p id="cart">Cart: empty.</p>
</section>
<section id="checkout" hidden>
<h1>Checkout</h1>
<p>Saved address: <span data-snag-mask>Erika Mustermann, Heidestraße 17, 51147 Köln</span></p>
<form id="pay">
<label>Email <input type="email" name="email" autocomplete="email"></label>
<label>Card number <input name="card" inputmode="numeric" autocomplete="cc-number"></label>
<label>Account password <input type="password" name="password" autocomplete="current-password"></label>
<button type="submit">Pay now</button>
</form>
<p id="status" role="status"></p>
</section>
</main>
<script>
(function () {
  var cart = [];
  function show(path) {
    var checkout = path === '/checkout';
    document.getElementById('shop').hidden = checkout;
    document.getElementById('checkout').hidden = !checkout;
    document.title = (checkout ? 'Checkout' : 'My shop') + ' (Snag demo page)';
  }
  document.querySelector('nav').addEventListener('click', function (e) {
    var a = e.target.closest('a');
    if (!a) return;
    e.preventDefault();
    history.pushState({}, '', a.getAttribute('href'));
    show(location.pathname);
  });
  window.addEventListener('popstate', function () { show(location.pathname); });
  document.getElementById('shop').addEventListener('click', function (e) {
    var item = e.target.getAttribute('data-item');
    if (!item) return;
    cart.push(item);
    document.getElementById('cart').textContent = 'Cart: ' + cart.join(', ') + '.';
  });
  document.getElementById('pay').addEventListener('submit', function (e) {
    e.preventDefault();
    document.getElementById('status').textContent = 'Paying…';
    fetch('/api/pay', { method: 'POST', body: JSON.stringify({ items: cart }) })
      .then(function (r) { return r.json(); })
      .then(function (answer) {
        // The bug to report: the failed payment's answer has no receipt.
        document.getElementById('status').textContent = 'Paid, receipt ' + answer.receipt.id;
      })
      .catch(function (err) {
        document.getElementById('status').textContent = 'Something went wrong. Please try again.';
        console.error('Payment failed:', err.message);
      });
  });
  show(location.pathname);
})();
</script>
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

/** Serves the page at every path (the app routes itself) and the failing payment call on `localhost:<port>` (0: a free port), loopback only. */
export function startDemo(opts: { port: number; appUrl: string; projectId: string }): Promise<DemoServer> {
  const page = demoPage(opts.appUrl, opts.projectId);
  const server = createServer((req, res) => {
    // The shop's payment service, down on purpose (the bug the demo reports).
    if (req.method === 'POST' && req.url === '/api/pay') {
      send(res, 500, { 'content-type': 'application/json' }, '{"error":"payment service unavailable"}');
      return;
    }
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
