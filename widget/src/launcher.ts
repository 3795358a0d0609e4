/**
 * The launcher button: one implementation for customer pages (loader.ts) and the dashboard's live
 * preview (web/src/projects/LauncherPreview.tsx).
 *
 * It lives in an open shadow root on a `<snag-launcher>` host. Page CSS cannot reach inside the shadow
 * root, and the host itself is pinned by `:host` rules marked `!important`: an important declaration of
 * a shadow tree beats every important declaration of the page (CSS Cascade, "context"), so rules such as
 * `* { box-sizing: content-box !important }` or `div { display: none !important }` change nothing.
 * `all: initial` stops inherited page styles (font, colour, letter spacing) at the host.
 *
 * Colours (docs/decisions-widget.md): the button is the configured colour; the scheme names the colour of
 * its text and icon: `white` (Light) white, `black` (Dark) near-black for light brand colours.
 */
import type { WidgetConfig } from '#contracts/widget-config';

export type LauncherLook = Pick<WidgetConfig, 'text' | 'color' | 'scheme' | 'position'>;

export interface Launcher {
  host: HTMLElement;
  button: HTMLButtonElement;
  /** Re-renders with new settings (the dashboard's preview of unsaved changes). */
  update(look: LauncherLook): void;
}

/** Text and icon colour by scheme. */
export const schemeForeground = { white: '#FFFFFF', black: '#14141F' } as const;

const fallbackColor = '#4F4EAE';

/** `rule` with every declaration marked important. */
const important = (decls: string) => decls.replace(/;/g, '!important;');

export function launcherCss(look: LauncherLook): string {
  const bg = /^#[0-9a-f]{6}$/i.test(look.color) ? look.color : fallbackColor;
  const fg = schemeForeground[look.scheme] ?? schemeForeground.white;
  const side = look.position.startsWith('left') ? 'left' : 'right';
  const tab = look.position.endsWith('Middle');
  const host = tab
    ? `top:50%;${side}:0;transform:translateY(-50%);`
    : `bottom:calc(20px + env(safe-area-inset-bottom,0px));${side}:20px;`;
  const shape = tab
    ? `writing-mode:vertical-rl;padding:16px 11px;border-radius:10px 0 0 10px;max-height:70vh;${
        side === 'left' ? 'transform:rotate(180deg);' : ''
      }`
    : 'padding:12px 20px 12px 16px;border-radius:999px;max-width:calc(100vw - 40px);';
  return `:host{${important(`all:initial;display:block;position:fixed;z-index:2147483000;margin:0;padding:0;border:0;visibility:visible;opacity:1;${host}`)}}
:host([hidden]){display:none!important}
button{all:initial;box-sizing:border-box;display:flex;align-items:center;gap:8px;${shape}background:${bg};color:${fg};font:600 14px/1.25 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;letter-spacing:.01em;cursor:pointer;box-shadow:0 4px 16px rgba(16,16,40,.24);overflow:hidden;white-space:nowrap;-webkit-tap-highlight-color:transparent;transition:filter .15s}
button:hover{filter:brightness(1.1)}
button:focus-visible{outline:0;box-shadow:0 0 0 2px #fff,0 0 0 5px #14141F}
span{overflow:hidden;text-overflow:ellipsis}
svg{flex:none;width:18px;height:18px;fill:none;stroke:currentColor;stroke-width:2;stroke-linecap:round;stroke-linejoin:round${
    tab ? ';transform:rotate(90deg)' : ''
  }}
@media print{:host{display:none!important}}
@media (prefers-reduced-motion:reduce){button{transition:none}}`;
}

const icon =
  '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M8 9h8M8 13h5M18 4a3 3 0 0 1 3 3v8a3 3 0 0 1-3 3h-5l-5 3v-3H6a3 3 0 0 1-3-3V7a3 3 0 0 1 3-3z"/></svg>';

export function createLauncher(doc: Document, look: LauncherLook, onClick: () => void): Launcher {
  const host = doc.createElement('snag-launcher');
  const root = host.attachShadow({ mode: 'open' });
  const style = doc.createElement('style');
  const button = doc.createElement('button');
  const label = doc.createElement('span');
  button.type = 'button';
  button.innerHTML = icon;
  button.append(label);
  button.addEventListener('click', onClick);
  root.append(style, button);
  const update = (next: LauncherLook) => {
    style.textContent = launcherCss(next);
    label.textContent = next.text; // text, never markup
    host.setAttribute('data-position', next.position);
  };
  update(look);
  return { host, button, update };
}
