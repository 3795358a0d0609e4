/**
 * The recorder chunk (≤ 30 KB gzip): the steps and the session recorder on rrweb, loaded by the loader
 * once the page is idle, only where the launcher shows and the configuration has `replay`.
 */
import { startActivity } from './activity/index';
import { startRecorder } from './activity/recorder';

startActivity(startRecorder);
