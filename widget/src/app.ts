/**
 * Widget app, loaded on the first `Snag.open()` (the launcher's click). The reporting form, screenshots
 * and annotation come in later issues; for now it shows the (empty) panel beside the launcher, in its own
 * shadow root so the host page's CSS cannot leak in, and registers itself with the loader.
 */
import type { WidgetConfig } from '../../functions/shared/widget-config';
import type { WidgetApp } from './api';
import { schemeForeground } from './launcher';

(() => {
  const snag = window.Snag;
  if (!snag?._r) return;

  let host: HTMLElement | null = null;
  let onClose: ((hadFocus: boolean) => void) | undefined;

  function css(config: WidgetConfig): string {
    const side = config.position.startsWith('left') ? 'left' : 'right';
    const place = config.position.endsWith('Middle')
      ? `top:50%;${side}:64px;transform:translateY(-50%)`
      : `bottom:84px;${side}:20px`;
    return `:host{all:initial!important;position:fixed!important;z-index:2147483001!important;display:block!important;${place.replace(/;/g, '!important;')}!important}
.p{box-sizing:border-box;width:340px;max-width:calc(100vw - 40px);background:#fff;color:#1f2330;border-radius:14px;
box-shadow:0 16px 48px rgba(20,20,60,.28);font:14px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;overflow:hidden}
.h{display:flex;align-items:center;justify-content:space-between;gap:12px;padding:12px 12px 12px 18px;background:${config.color};color:${schemeForeground[config.scheme]};font-weight:600}
.b{padding:18px}
button{all:initial;box-sizing:border-box;display:grid;place-items:center;width:32px;height:32px;border-radius:8px;cursor:pointer;color:inherit;font:20px/1 system-ui,sans-serif}
button:hover{background:rgba(127,127,127,.2)}button:focus-visible{outline:2px solid currentColor;outline-offset:1px}
@media (max-width:480px){:host{left:10px!important;right:10px!important;bottom:10px!important;top:auto!important;transform:none!important}.p{width:100%;max-width:none}}`;
  }

  function close(): void {
    if (!host) return;
    const hadFocus = host.shadowRoot?.activeElement != null;
    host.remove();
    host = null;
    onClose?.(hadFocus);
  }

  function open(config: WidgetConfig, closed: (hadFocus: boolean) => void): void {
    onClose = closed;
    if (host) return;
    host = document.createElement('snag-panel');
    const root = host.attachShadow({ mode: 'open' });
    const style = document.createElement('style');
    style.textContent = css(config);
    const panel = document.createElement('div');
    panel.className = 'p';
    panel.setAttribute('role', 'dialog');
    panel.setAttribute('aria-label', config.text);
    panel.innerHTML =
      '<div class="h"><span></span><button type="button" aria-label="Close">×</button></div><div class="b"></div>';
    (panel.querySelector('.h span') as HTMLElement).textContent = config.text;
    (panel.querySelector('.b') as HTMLElement).textContent = 'Thanks for helping us improve this site.';
    const button = panel.querySelector('button') as HTMLButtonElement;
    button.addEventListener('click', close);
    panel.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') close();
    });
    root.append(style, panel);
    document.body.appendChild(host);
    button.focus();
  }

  const app: WidgetApp = { open, close };
  snag._r(app);
})();
