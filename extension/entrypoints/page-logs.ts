/**
 * The page-log script: runs in the page's own JavaScript world (MAIN), injected when the user acts on a tab
 * or registered at document_start where they turned on "capture logs from page load". The widget's own log
 * buffer (console errors and warnings, uncaught errors, failed requests) and steps recorder, answering the
 * reporter's pulls (lib/page-bridge.ts). Once per page: a second injection finds it running.
 */
import { defineUnlistedScript } from 'wxt/utils/define-unlisted-script';
import { createStepsRecorder } from '../../widget/src/activity/steps';
import { startLogBuffer } from '../../widget/src/capture/log-buffer';
import { PULL_EVENT, PUSH_EVENT } from '../lib/page-bridge';

const RUNNING = '__snagExtensionLogs';

/** The page events the widget's loader turns into steps (widget/src/loader.ts). */
const STEP_EVENTS = ['click', 'focusin', 'change', 'submit', 'popstate'];

export default defineUnlistedScript(() => {
  const w = window as unknown as Record<string, unknown>;
  if (w[RUNNING]) return;
  Object.defineProperty(w, RUNNING, { value: true });
  const logs = startLogBuffer(window);
  const steps = createStepsRecorder(location.href, performance.timeOrigin);
  for (const type of STEP_EVENTS) addEventListener(type, (e) => steps.take(e), true);
  document.addEventListener(PULL_EVENT, (e) => {
    const nonce = (e as CustomEvent<unknown>).detail;
    if (typeof nonce !== 'string') return;
    const detail = JSON.stringify({ nonce, logs, steps: steps.list() });
    document.dispatchEvent(new CustomEvent(PUSH_EVENT, { detail }));
  });
});
