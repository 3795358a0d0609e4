// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest';
import { absoluteCss, absoluteSrcset, isScriptUrl, snapshotHtml } from '../../../widget/src/capture/snapshot';

const none = () => false;

beforeEach(() => {
  document.head.innerHTML = `
    <meta http-equiv="refresh" content="0;url=https://evil.test/">
    <meta name="csrf-token" content="tok-123">
    <base href="https://elsewhere.test/">
    <style>.hero{background:url(img/hero.png)}</style>
    <script>alert(1)</script>`;
  document.body.innerHTML = `
    <h1 onclick="steal()" class="t">Shop</h1>
    <img src="/a.png" srcset="/a.png 1x, b.png 2x" onerror="steal()" alt="A">
    <a href="javascript:steal()">bad</a><a href=" JaVaScRiPt:steal()">bad2</a><a href="/ok?x=1">ok</a>
    <iframe srcdoc="<script>steal()</script>" src="https://ads.test/"></iframe>
    <object data="x.swf"></object><embed src="y.swf">
    <noscript><img src="/tracker.gif"></noscript>
    <form action="javascript:steal()">
      <input id="name" value="initial"><input id="pw" type="password" value="hunter2">
      <input id="cc" autocomplete="cc-number" value="4242424242424242">
      <input type="hidden" name="csrf" value="tok-456">
      <input id="cb" type="checkbox"><textarea id="ta">old</textarea>
      <select id="sel"><option>S</option><option>M</option></select>
    </form>
    <div data-snag-mask title="Jane private"><p>Account 12345</p><input value="masked-too"></div>
    <snag-panel>widget text</snag-panel>
    <svg><a href="javascript:steal()"><text>x</text></a><script>steal()</script></svg>`;
  (document.getElementById('name') as HTMLInputElement).value = 'typed by visitor';
  (document.getElementById('cb') as HTMLInputElement).checked = true;
  (document.getElementById('ta') as HTMLTextAreaElement).value = 'typed <b>text</b>';
  (document.getElementById('sel') as HTMLSelectElement).value = 'M';
});

describe('snapshotHtml', () => {
  it('contains nothing that runs', () => {
    const html = snapshotHtml((el) => el.tagName === 'SNAG-PANEL');
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/\son\w+=/i);
    expect(html).not.toMatch(/javascript:/i);
    expect(html).not.toMatch(/srcdoc|<iframe|<object|<embed|<noscript|tracker\.gif/i);
    expect(html).not.toMatch(/http-equiv|evil\.test|elsewhere\.test/);
    expect(html).toContain('data-snag-replaced="iframe"');
  });

  it('adds one base of the page URL and makes URLs absolute', () => {
    const html = snapshotHtml(none);
    const origin = location.origin;
    expect(html.match(/<base /g)).toHaveLength(1);
    expect(html).toContain(`<base href="${location.href}">`);
    expect(html).toContain(`src="${origin}/a.png"`);
    expect(html).toContain(`srcset="${origin}/a.png 1x, ${origin}/b.png 2x"`);
    expect(html).toContain(`href="${origin}/ok?x=1"`);
    expect(html).toContain(`url("${origin}/img/hero.png")`);
    expect(html).toMatch(/<meta name="snag-snapshot" content="[^"]*scrollY/);
  });

  it('writes form state as rendered and leaves masked values, hidden inputs and meta tokens out', () => {
    const html = snapshotHtml(none);
    expect(html).toContain('value="typed by visitor"');
    expect(html).toMatch(/id="cb" type="checkbox" checked>/);
    expect(html).toContain('typed &lt;b&gt;text&lt;/b&gt;</textarea>');
    expect(html).toMatch(/<option selected>M<\/option>/);
    for (const secret of [
      'hunter2',
      '4242424242424242',
      'Account 12345',
      'masked-too',
      'Jane private',
      'tok-123',
      'tok-456',
    ]) {
      expect(html).not.toContain(secret);
    }
    expect(html).toContain('data-snag-mask');
    expect(html).toContain('widget text'); // not excluded here: the filter decides
    expect(snapshotHtml((el) => el.tagName === 'SNAG-PANEL')).not.toContain('widget text');
  });

  it('trims to the size cap instead of failing', () => {
    document.body.insertAdjacentHTML('beforeend', `<img src="data:image/png;base64,${'A'.repeat(20_000)}">`);
    document.body.insertAdjacentHTML('beforeend', `<p>${'lorem ipsum '.repeat(2000)}</p>`);
    const full = snapshotHtml(none);
    expect(full).toContain('A'.repeat(20_000));
    const small = snapshotHtml(none, 10_000);
    expect(new TextEncoder().encode(small).length).toBeLessThanOrEqual(10_000);
    expect(small).toContain('<base href=');
  });
});

describe('URL helpers', () => {
  it('recognises script URLs however they are spelled', () => {
    expect(isScriptUrl('javascript:alert(1)')).toBe(true);
    expect(isScriptUrl(' \tJaVa\nScRiPt:alert(1)')).toBe(true);
    expect(isScriptUrl('vbscript:x')).toBe(true);
    expect(isScriptUrl('https://a.test/javascript:x')).toBe(false);
  });

  it('resolves CSS urls and srcset against a base', () => {
    expect(
      absoluteCss(
        "a{background:url('i.png')} b{src:url(data:font/woff2;base64,AA)}",
        'https://s.test/css/x.css',
      ),
    ).toBe('a{background:url("https://s.test/css/i.png")} b{src:url("data:font/woff2;base64,AA")}');
    expect(
      absoluteCss(`a{background:url(data:image/png;base64,${'A'.repeat(600)})}`, 'https://s.test/', false),
    ).toBe('a{background:url("")}');
    expect(absoluteSrcset('a.png 1x,  /b.png 2x', 'https://s.test/p/')).toBe(
      'https://s.test/p/a.png 1x, https://s.test/b.png 2x',
    );
  });
});
