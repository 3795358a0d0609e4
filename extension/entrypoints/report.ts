/**
 * The reporter: the widget's own app (form, annotation editor, languages, masking) in its shadow root on
 * the page, run in the extension's isolated world. Injected by the background worker when the user acts;
 * it opens the panel on the worker's `snag-open` message (again on each later one: one app per page).
 */

import { browser } from '@wxt-dev/browser';
import { defineUnlistedScript } from 'wxt/utils/define-unlisted-script';
import type { WidgetConfig } from '#contracts/widget-config';
import type { WidgetApp } from '../../widget/src/api';
import { createApp } from '../../widget/src/app/index';
import { withLanguage } from '../../widget/src/language';
import { extensionCapture } from '../lib/capture';
import type { ContentRequest, OpenMessage } from '../lib/messages';
import { pullPageActivity } from '../lib/page-bridge';
import { askBackground, extensionTransport } from '../lib/transport';

const RUNNING = '__snagExtensionReporter';

export default defineUnlistedScript(() => {
  const w = window as unknown as Record<string, unknown>;
  if (w[RUNNING]) return; // Injected again on a later click: the listener below is already here.
  w[RUNNING] = true;
  const ask = askBackground((m: ContentRequest) => browser.runtime.sendMessage(m));
  const capture = extensionCapture(() => ask<string>({ type: 'capture' }));
  let app: { projectId: string; app: WidgetApp; config: WidgetConfig } | undefined;

  browser.runtime.onMessage.addListener((message) => {
    const m = message as OpenMessage;
    if (m?.type !== 'snag-open') return;
    const config = withLanguage(m.config, navigator.languages);
    // Another project chosen since: a new app, so the draft and the config belong together.
    if (!app || app.projectId !== m.projectId) {
      app?.app.close();
      app = {
        projectId: m.projectId,
        config,
        app: createApp(
          capture,
          extensionTransport(m.projectId, ask, () => pullPageActivity()),
        ),
      };
    }
    app.app.open(app.config, () => {});
  });
});
