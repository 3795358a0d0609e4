/** @jsxImportSource preact */
/**
 * The panel's host on the page: `<snag-panel>` with an open shadow root (docs/decisions-widget.md
 * "Isolation from the host page"), the focus trap, Escape, and returning the focus on close.
 */
import { render } from 'preact';
import type { Controller } from './controller';
import { hasContent } from './state';
import { appCss } from './styles';
import { App } from './ui/App';

const focusable =
  'button:not([disabled]),input:not([hidden]),textarea,video[controls],canvas[tabindex],[href]';

export interface Panel {
  host: HTMLElement;
  close(): void;
}

export function mountPanel(c: Controller, onClosed: (hadFocus: boolean) => void): Panel {
  const host = document.createElement('snag-panel');
  const root = host.attachShadow({ mode: 'open' });
  const style = document.createElement('style');
  style.textContent = appCss(c.config);
  const wrap = document.createElement('div');
  wrap.className = 'w';
  wrap.lang = c.config.language;
  root.append(style, wrap);

  const close = () => {
    const hadFocus = root.activeElement != null;
    c.store.set({ confirm: false });
    render(null, wrap);
    host.remove();
    onClosed(hadFocus);
  };

  // Escape: the editor handles its own; a question open is answered "keep editing"; a draft asks first.
  wrap.addEventListener('keydown', (e) => {
    const s = c.store.get();
    if (e.key === 'Escape') {
      e.preventDefault();
      if (s.confirm) c.store.set({ confirm: false });
      else if (s.screen === 'form' && hasContent(s.draft)) c.store.set({ confirm: true });
      else if (s.busy !== 'record') close();
    } else if (e.key === 'Tab') {
      // Focus stays inside the panel while it is open (it is a modal dialog).
      const items = [...wrap.querySelectorAll<HTMLElement>(focusable)].filter(
        (el) => el.getClientRects().length,
      );
      const first = items[0];
      const last = items[items.length - 1];
      const active = root.activeElement;
      if (!first || !last) return;
      if (e.shiftKey ? active === first || !active : active === last || !active) {
        e.preventDefault();
        (e.shiftKey ? last : first).focus();
      }
    }
  });

  render(<App c={c} onClose={close} />, wrap);
  document.body.appendChild(host);
  return { host, close };
}
