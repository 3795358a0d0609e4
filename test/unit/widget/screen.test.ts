import { describe, expect, it } from 'vitest';
import { canCaptureScreen } from '../../../widget/src/capture/screen';

type Fake = Parameters<typeof canCaptureScreen>[0];

/** A browser window as canCaptureScreen sees it. */
function browser({
  displayMedia = true,
  coarse = false,
  mobile = undefined as boolean | undefined,
} = {}): Fake {
  const mediaDevices = displayMedia ? { getDisplayMedia: async () => ({}) } : {};
  return {
    navigator: { mediaDevices, userAgentData: mobile === undefined ? undefined : { mobile } },
    matchMedia: (query: string) => ({ matches: query === '(pointer: coarse)' && coarse }),
  } as unknown as Fake;
}

describe('"screenshot via screen sharing" is offered', () => {
  it('on a desktop browser with getDisplayMedia', () => {
    expect(canCaptureScreen(browser())).toBe(true);
    expect(canCaptureScreen(browser({ mobile: false }))).toBe(true);
  });

  it('not where getDisplayMedia is missing (older browsers, insecure pages)', () => {
    expect(canCaptureScreen(browser({ displayMedia: false }))).toBe(false);
    const noDevices = { navigator: {}, matchMedia: () => ({ matches: false }) } as unknown as Fake;
    expect(canCaptureScreen(noDevices)).toBe(false);
  });

  it('not on touch-first devices, even where the API exists', () => {
    expect(canCaptureScreen(browser({ coarse: true }))).toBe(false);
    expect(canCaptureScreen(browser({ mobile: true }))).toBe(false);
  });
});
