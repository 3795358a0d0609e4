/**
 * The steps chunk: loaded by the loader once the page is idle where the widget runs and the configuration
 * has no `replay` (every plan records steps; the recorder chunk includes them where replay is on).
 */
import { startActivity } from './activity/index';

startActivity();
