/**
 * When the launcher may show on a page (docs/decisions-widget.md): the project's domain rule
 * (functions/contracts/domains.ts, the same function the API uses), test mode and the mobile setting.
 */
import { hostMatches } from '#contracts/domains';
import { TEST_MODE_PARAM, type WidgetConfig } from '#contracts/widget-config';

/** A phone has a coarse primary pointer and a screen whose shorter side is below this many CSS pixels. */
export const PHONE_MAX_SIDE = 767;

export interface PageFacts {
  /** `location.hostname`. */
  host: string;
  /** `location.search`. */
  search: string;
  phone: boolean;
}

export function launcherAllowed(
  config: Pick<WidgetConfig, 'host' | 'wildcard' | 'testMode' | 'hideOnMobile'>,
  page: PageFacts,
): boolean {
  if (!hostMatches(page.host, config.host, config.wildcard)) return false;
  if (config.testMode && new URLSearchParams(page.search).get(TEST_MODE_PARAM) !== '1') return false;
  return !(config.hideOnMobile && page.phone);
}

/**
 * Phone detection: the screen, not the viewport (a page without a viewport meta tag reports a 980 px
 * layout viewport on phones), and a touch-first pointer (a narrow desktop window is not a phone; tablets,
 * with a shorter side of 768 px and more, are not phones either).
 */
export function isPhone(win: Pick<Window, 'matchMedia' | 'screen'>): boolean {
  // `&&` rather than `?.`/`??`: the loader's ES2019 output, where those cost twice the bytes.
  const coarse = !!win.matchMedia && win.matchMedia('(pointer: coarse)').matches;
  return coarse && Math.min(win.screen.width, win.screen.height) <= PHONE_MAX_SIDE;
}
