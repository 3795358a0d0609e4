/**
 * The generated page the capture bench screenshots (DESIGN.md section 7: "a 3,000-element page"): a
 * fixed header, then repeated sections of nested grid and flex layouts, product cards with raster images,
 * tables, lists, forms and inline SVG, with varied text. Deterministic, so runs are comparable.
 * Image URLs are `/img/<n>.png`; the bench serves them (see `benchImages`).
 */
import { png } from '../support/png';

const words =
  'ceramic studio glaze kiln bowl vase teapot porcelain stoneware handmade clay wheel texture colour shelf order delivery return gift'.split(
    ' ',
  );

function text(seed: number, n: number): string {
  let out = '';
  for (let i = 0; i < n; i++) out += `${i ? ' ' : ''}${words[(seed * 7 + i * 3) % words.length]}`;
  return out;
}

const palette: [number, number, number][] = [
  [233, 199, 217],
  [241, 217, 195],
  [190, 220, 200],
  [200, 210, 240],
  [250, 235, 170],
  [210, 190, 230],
];

/** The images the page references, by path. */
export function benchImages(): Map<string, Buffer> {
  return new Map(palette.map((colour, i) => [`/img/${i}.png`, png(160, 120, colour, true)]));
}

/** Counts the elements a fragment opens (tags that are not closing tags). */
function elementCount(html: string): number {
  return html.match(/<[a-z][a-z0-9]*/g)?.length ?? 0;
}

function card(i: number): string {
  return `<article class="card"><img src="/img/${i % palette.length}.png" width="160" height="120" alt="">
<div class="body"><h3>${text(i, 3)}</h3><p>${text(i + 1, 14)}</p>
<div class="row"><span class="price">€${(i * 7.3 + 12).toFixed(2)}</span><span class="tag">${text(i, 1)}</span>
<button type="button">Add</button></div></div></article>`;
}

function table(i: number): string {
  let rows = '';
  for (let r = 0; r < 6; r++) {
    rows += `<tr><td>${text(i + r, 2)}</td><td>${r * 3 + i}</td><td><a href="#r${r}">${text(r, 1)}</a></td></tr>`;
  }
  return `<table><thead><tr><th>Item</th><th>Qty</th><th>Link</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function form(i: number): string {
  return `<form class="form"><label>Name <input name="n${i}" value="${text(i, 2)}"></label>
<label>Size <select name="s${i}"><option>S</option><option selected>M</option><option>L</option></select></label>
<label><input type="checkbox" checked> ${text(i, 2)}</label><textarea rows="2">${text(i, 8)}</textarea></form>`;
}

function section(i: number): string {
  let cards = '';
  for (let c = 0; c < 8; c++) cards += card(i * 8 + c);
  let list = '';
  for (let l = 0; l < 6; l++) list += `<li><em>${text(i + l, 1)}</em> ${text(i * 2 + l, 6)}</li>`;
  return `<section class="s${i % 3}"><h2>${text(i, 4)}</h2>
<div class="flex"><div class="col"><p>${text(i, 30)}</p><ul>${list}</ul></div>
<div class="col"><svg width="48" height="48" viewBox="0 0 48 48"><circle cx="24" cy="24" r="20" fill="#c97"/><path d="M12 24h24" stroke="#fff" stroke-width="4"/></svg>${table(i)}</div>
<div class="col">${form(i)}</div></div>
<div class="grid">${cards}</div></section>`;
}

/** The bench page with at least `elements` elements in its body. */
export function capturePage(elements = 3000): string {
  const header =
    '<header class="top"><b>Acme Ceramics</b><nav><a href="#">Shop</a><a href="#">Studio</a><a href="#">Journal</a><a href="#">Contact</a></nav></header>';
  let body = header;
  let count = elementCount(header);
  for (let i = 0; count < elements; i++) {
    const s = section(i);
    body += s;
    count += elementCount(s);
  }
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Capture bench (${count} elements)</title>
<style>
body{margin:0;font:15px/1.5 Georgia,serif;color:#2a2a2a;background:#faf7f2;padding-top:64px}
.top{position:fixed;top:0;left:0;right:0;height:64px;display:flex;align-items:center;justify-content:space-between;padding:0 32px;background:rgba(255,255,255,.94);box-shadow:0 2px 8px rgba(0,0,0,.08);z-index:10}
.top nav a{margin-left:20px;color:#444;text-decoration:none}
section{padding:24px 32px;border-bottom:1px solid #eadfcf}.s1{background:#fff}.s2{background:linear-gradient(90deg,#fff5ec,#f4ecfa)}
.flex{display:flex;gap:20px;flex-wrap:wrap}.col{flex:1 1 260px;min-width:0}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(220px,1fr));gap:16px;margin-top:18px}
.card{display:flex;flex-direction:column;border:1px solid #e8dccb;border-radius:12px;overflow:hidden;background:#fff;box-shadow:0 1px 3px rgba(0,0,0,.06)}
.card img{width:100%;height:120px;object-fit:cover}.card .body{padding:10px 12px}.card h3{margin:0 0 6px;font-size:16px;text-transform:capitalize}
.card p{margin:0 0 8px;font-size:13px;color:#666}.row{display:flex;align-items:center;gap:8px}.price{font-weight:bold;color:#8a4b2a}
.tag{font:12px system-ui,sans-serif;padding:2px 8px;border-radius:99px;background:#f1e6d8}
button{margin-left:auto;border:0;border-radius:8px;padding:6px 12px;background:#8a4b2a;color:#fff;font:13px system-ui,sans-serif}
table{border-collapse:collapse;width:100%;font-size:13px}th,td{border-bottom:1px solid #eee;padding:4px 6px;text-align:left}
.form{display:grid;gap:8px}.form input:not([type]),.form select,.form textarea{display:block;width:100%;box-sizing:border-box;padding:4px 6px;border:1px solid #ccc;border-radius:6px}
</style></head><body>${body}</body></html>`;
}
