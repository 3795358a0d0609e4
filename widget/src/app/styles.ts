/**
 * The app's style sheet, inside the `<snag-panel>` shadow root (docs/decisions-widget.md "Isolation from
 * the host page"): the host is pinned with `!important` (which beats the page's important rules), and
 * page CSS never reaches inside, so nothing here needs to defend against it.
 *
 * The host covers the visible part of the page (the visual viewport, kept in --snag-x/y/w/h by panel.tsx:
 * on a phone page wider than the screen, or with the keyboard open, the layout viewport is larger) but
 * lets pointer events through: only the panel and the editor, placed inside it, take them.
 * The brand colour and its text colour come in as the custom properties --c and --f.
 */
import type { WidgetConfig } from '#contracts/widget-config';
import { schemeForeground } from '../launcher';

const fallbackColor = '#4F4EAE';

/** Where the panel sits on a desktop: next to the launcher. */
function placement(position: WidgetConfig['position']): string {
  const side = position.startsWith('left') ? 'left' : 'right';
  return position.endsWith('Middle')
    ? `top:50%;${side}:60px;transform:translateY(-50%);max-height:calc(100% - 32px)`
    : `bottom:80px;${side}:20px;max-height:calc(100% - 100px)`;
}

export function appCss(config: Pick<WidgetConfig, 'color' | 'scheme' | 'position'>): string {
  const color = /^#[0-9a-f]{6}$/i.test(config.color) ? config.color : fallbackColor;
  const fg = schemeForeground[config.scheme] ?? schemeForeground.white;
  return `:host{all:initial!important;display:block!important;position:fixed!important;left:var(--snag-x,0px)!important;top:var(--snag-y,0px)!important;width:var(--snag-w,100%)!important;height:var(--snag-h,100%)!important;z-index:2147483001!important;pointer-events:none!important;visibility:visible!important;opacity:1!important}
:host([hidden]){display:none!important}
*{box-sizing:border-box;margin:0;padding:0;min-width:0}
[hidden]{display:none!important}
.w{--c:${color};--f:${fg};--r:#D92D20;--m:#5B6072;--l:#E3E5EC;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;color:#1F2330;-webkit-font-smoothing:antialiased;-webkit-tap-highlight-color:transparent}
.dlg{pointer-events:auto;position:absolute;${placement(config.position)};width:384px;display:flex;flex-direction:column;background:#fff;border-radius:16px;box-shadow:0 24px 64px rgba(16,16,40,.3),0 2px 8px rgba(16,16,40,.12);overflow:hidden;animation:in .16s ease-out}
@keyframes in{from{opacity:0}}
.hd{display:flex;align-items:center;gap:8px;padding:10px 8px 10px 18px;background:var(--c);color:var(--f)}
.hd h2{flex:1;font-size:16px;font-weight:650;line-height:1.3;overflow-wrap:anywhere}
.bd{flex:1;overflow:auto;overscroll-behavior:contain;padding:16px 18px 18px;display:flex;flex-direction:column;gap:14px}
.ft{padding:8px 18px;border-top:1px solid var(--l);font-size:12px;color:var(--m);text-align:center}
.ft b{font-weight:650;color:#1F2330}
h3{font-size:13px;font-weight:650;display:flex;justify-content:space-between;gap:8px;margin-bottom:8px}
h3 span,.hint,.cnt{font-weight:400;color:var(--m);font-size:12px}
label{display:block;font-weight:600;margin-bottom:6px}
.f{display:flex;flex-direction:column}
.in{display:block;width:100%;min-height:44px;padding:10px 12px;border:1px solid #C9CCD8;border-radius:10px;background:#fff;color:inherit;font:inherit;outline:0;transition:border-color .15s,box-shadow .15s}
textarea.in{min-height:112px;resize:vertical}
.in::placeholder{color:#6B7080}
.in:focus{border-color:var(--c);box-shadow:0 0 0 3px rgba(127,127,160,.25)}
.in[aria-invalid=true]{border-color:var(--r)}
.meta{display:flex;justify-content:space-between;gap:8px;margin-top:4px;min-height:17px}
.err{color:var(--r);font-size:12px;font-weight:500}
.cnt{margin-left:auto;white-space:nowrap}.cnt.over{color:var(--r)}
.hint{margin-top:4px}
.chk{display:flex;align-items:flex-start;gap:10px}
.chk input{flex:none;width:20px;height:20px;margin-top:1px;accent-color:#3A3F55;cursor:pointer}
.chk label{margin:0}
button,a{font:inherit;color:inherit;cursor:pointer}
button{border:0;background:none}
button:disabled{cursor:default;opacity:.5}
:focus-visible{outline:0;box-shadow:0 0 0 2px #fff,0 0 0 4px #14141F}
.btn{display:inline-flex;align-items:center;justify-content:center;gap:8px;min-height:44px;padding:9px 14px;border:1px solid #C9CCD8;border-radius:10px;background:#fff;color:#1F2330;font-weight:600;text-align:center;transition:background .15s,filter .15s}
.btn:hover:not(:disabled){background:#F4F5F8}
.pri{background:var(--c);color:var(--f);border-color:transparent}
.pri:hover:not(:disabled){background:var(--c);filter:brightness(1.08)}
.full{width:100%}
.ic{display:inline-grid;place-items:center;width:40px;height:40px;flex:none;border-radius:10px}
.ic:hover:not(:disabled){background:rgba(127,127,140,.18)}
svg{width:20px;height:20px;flex:none;fill:none;stroke:currentColor;stroke-width:2;stroke-linecap:round;stroke-linejoin:round}
.acts{display:flex;flex-wrap:wrap;gap:8px}
.acts .btn{flex:1 1 150px}
.shots{display:grid;grid-template-columns:repeat(auto-fill,minmax(100px,1fr));gap:8px;margin-bottom:8px}
.th{position:relative;border-radius:10px;overflow:hidden;border:1px solid var(--l);background:#F4F5F8;aspect-ratio:4/3}
.th>button:first-child{display:block;width:100%;height:100%}
.th img{display:block;width:100%;height:100%;object-fit:cover}
.th .rm{position:absolute;top:4px;right:4px;width:32px;height:32px;background:rgba(20,20,31,.72);color:#fff}
.th .rm svg{width:16px;height:16px}
.th .rm:hover:not(:disabled){background:rgba(20,20,31,.9)}
.drop{border:1.5px dashed #C9CCD8;border-radius:12px;padding:10px;display:flex;flex-wrap:wrap;align-items:center;gap:6px 12px;color:var(--m)}
.drop.over{border-color:var(--c);background:#F4F5F8}
ul{list-style:none;display:flex;flex-direction:column;gap:6px;margin-bottom:8px}
li{display:flex;align-items:center;gap:8px;padding:2px 2px 2px 10px;border:1px solid var(--l);border-radius:10px}
li span{flex:1;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
li small{color:var(--m);white-space:nowrap}
video{display:block;width:100%;max-height:200px;border-radius:10px;background:#000;margin-bottom:8px}
.note,.alert{margin-top:8px;padding:10px 12px;border-radius:10px;background:#F4F5F8;color:#1F2330;font-size:13px}
.alert{background:#FEF0EF;color:#A0180F;border:1px solid #F8C9C5}
.sp{width:18px;height:18px;border:2.5px solid currentColor;border-right-color:transparent;border-radius:50%;animation:sp .8s linear infinite}
@keyframes sp{to{transform:rotate(360deg)}}
.center{text-align:center;align-items:center;padding:18px 4px}
.center p{color:var(--m);white-space:pre-line;overflow-wrap:anywhere}
.center .big,.big{font-size:20px;font-weight:700;color:#1F2330}
.center .num{font-size:40px;font-weight:750;letter-spacing:-.02em;color:#1F2330;line-height:1.1}
.bar{width:100%;height:8px;border-radius:8px;background:#ECEDF2;overflow:hidden}
.bar i{display:block;height:100%;background:var(--c);border-radius:8px;transition:width .2s}
.ok{display:grid;place-items:center;width:56px;height:56px;border-radius:50%;background:var(--c);color:var(--f)}
.ok svg{width:28px;height:28px;stroke-width:2.5}
.cf{display:flex;flex-direction:column;gap:8px}
.rec{width:auto;flex-direction:row;align-items:center;gap:10px;padding:8px 8px 8px 16px;border-radius:999px}
.dot{width:10px;height:10px;border-radius:50%;background:var(--r);animation:bl 1.2s ease-in-out infinite}
@keyframes bl{50%{opacity:.3}}
.time{font-variant-numeric:tabular-nums;font-weight:700}
.ed{pointer-events:auto;position:absolute;inset:0;display:flex;flex-direction:column;background:#15151F;color:#fff}
.tb{display:flex;flex-wrap:wrap;align-items:center;justify-content:center;gap:4px 12px;padding:8px;border-bottom:1px solid #2C2C3A}
.grp{display:flex;align-items:center;gap:4px}
.tb .ic[aria-pressed=true]{background:#fff;color:#14141F}
.sw-set{display:contents;border:0}
.sep{width:1px;height:24px;background:#3A3A4A;margin:0 4px}
.sw i{display:block;width:22px;height:22px;border-radius:50%;border:2px solid rgba(255,255,255,.5)}
.tb .sw[aria-pressed=true]{background:none}
.sw[aria-pressed=true] i{border-color:#fff;box-shadow:0 0 0 2px #15151F,0 0 0 4px #fff}
.stage{position:relative;flex:1;min-height:0;display:flex;align-items:center;justify-content:center;padding:12px;overflow:hidden}
canvas{display:block;touch-action:none;cursor:crosshair;box-shadow:0 4px 24px rgba(0,0,0,.5);background:#fff}
canvas.sel{cursor:move}
.ti{position:absolute;min-width:120px;padding:2px 6px;border:2px solid #fff;border-radius:6px;background:rgba(20,20,31,.85);color:#fff;font-weight:600;outline:0}
.eb{display:flex;flex-wrap:wrap;align-items:center;justify-content:flex-end;gap:8px;padding:8px 12px calc(8px + env(safe-area-inset-bottom,0px));border-top:1px solid #2C2C3A}
.eb .btn{min-width:110px;background:transparent;color:#fff;border-color:#4A4A5C}
.eb .pri{background:var(--c);color:var(--f);border-color:transparent}
.en{flex:1 1 220px;font-size:13px;color:#C9CCD8}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
@media (max-width:540px){.dlg{left:0;right:0;bottom:0;top:auto;width:auto;transform:none;max-height:92%;border-radius:16px 16px 0 0;padding-bottom:env(safe-area-inset-bottom,0px)}.rec{left:auto;right:12px;bottom:12px;border-radius:999px}}
@media (pointer:coarse){.th .rm{width:40px;height:40px}.ic{width:44px;height:44px}.drop span{display:none}}
@media (max-width:400px){.tb{gap:4px;padding:6px}.grp{gap:2px}.tb .ic{width:40px;height:40px}.tb .sw{width:34px}}
@media (prefers-reduced-motion:reduce){*{animation:none!important;transition:none!important}}
@media print{:host{display:none!important}}`;
}
