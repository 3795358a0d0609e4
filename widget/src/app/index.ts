/**
 * The widget app: one controller (state and actions) per page, created on the first open, and a panel
 * mounted while open. The app is the loader's `WidgetApp` (widget/src/api.ts).
 */
import type { WidgetConfig } from '#contracts/widget-config';
import type { OpenOptions, ReportOptions, WidgetApp } from '../api';
import type { CaptureApi } from '../capture/types';
import { type Controller, createController, type Page } from './controller';
import { browserTransport } from './http';
import { mountPanel, type Panel } from './panel';
import type { Transport } from './report';

/** Two animation frames: the page has painted without the widget before a capture starts. */
const painted = () => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r())));

export function createApp(capture: CaptureApi, transport: Transport = browserTransport): WidgetApp {
  let controller: Controller | undefined;
  let panel: Panel | undefined;

  const page: Page = {
    widgetElements: () =>
      [panel?.host, document.querySelector('snag-launcher')].filter((el): el is HTMLElement => !!el),
    async hideWidget(hidden) {
      for (const el of page.widgetElements()) {
        // The launcher's own `hidden` belongs to the loader (Snag.hide): remember and restore it.
        if (hidden) {
          el.dataset.snagWas = el.hidden ? '1' : '';
          el.hidden = true;
        } else {
          el.hidden = el.dataset.snagWas === '1';
          delete el.dataset.snagWas;
        }
      }
      if (hidden) await painted();
    },
    href: () => location.href,
    logs: () => window.Snag?._b,
    activity: () => window.Snag?._a,
  };

  const get = (config: WidgetConfig) => {
    controller ??= createController(config, capture, transport, page);
    return controller;
  };

  return {
    open(config: WidgetConfig, onClose: (hadFocus: boolean) => void, options?: OpenOptions) {
      const c = get(config);
      c.prefill(options);
      if (panel) return;
      // A step of its own, and the replay pauses: the panel and what the visitor does in it are not the page's.
      window.Snag?._e?.push({ type: 'open', timeStamp: performance.now() });
      page.activity()?.replay?.pause();
      panel = mountPanel(c, (hadFocus) => {
        panel = undefined;
        page.activity()?.replay?.resume();
        // Closing the thank-you screen ends that report: the next open starts a new one.
        if (c.store.get().screen === 'done') c.reset();
        onClose(hadFocus);
      });
    },
    close() {
      panel?.close();
    },
    report(config: WidgetConfig, options: ReportOptions) {
      return get(config).report(options);
    },
  };
}
