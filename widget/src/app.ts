/**
 * Widget app entry, loaded on the first `Snag.open()` or `Snag.report()` (widget/src/loader.ts): builds
 * the app around the page-capture code and registers it with the loader. The app itself is in app/.
 */
import { createApp } from './app/index';
import { capture } from './capture/index';

const snag = window.Snag;
if (snag?._r) snag._r(createApp(capture));
