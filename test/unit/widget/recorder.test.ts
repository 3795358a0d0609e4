// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { replayLimits } from '#contracts/intake';
import { mutatedNodes, mutationBudget } from '../../../widget/src/activity/recorder';
import {
  REPLAY_BLOCK_SELECTOR,
  REPLAY_MASK_TEXT_SELECTOR,
  replayOptions,
} from '../../../widget/src/activity/replay-options';
import { MASK_SELECTOR } from '../../../widget/src/capture/mask';

describe('the mutation limit', () => {
  it('trips once a window has seen more than the limit, and starts again in the next window', () => {
    const over = mutationBudget(100, 1000);
    expect(over(60, 0)).toBe(false);
    expect(over(40, 999)).toBe(false); // 100: at the limit, not over it
    expect(over(1, 999)).toBe(true);
    const fresh = mutationBudget(100, 1000);
    fresh(90, 0);
    expect(fresh(90, 1000)).toBe(false); // a new window
  });

  it("uses the contract's limit by default: 10,000 nodes within 1 s", () => {
    const over = mutationBudget();
    expect(over(replayLimits.mutationsMax, 0)).toBe(false);
    expect(over(1, replayLimits.mutationWindowMs - 1)).toBe(true);
  });

  it('counts an added subtree in full, and each other change once', async () => {
    const records: MutationRecord[] = [];
    const observer = new MutationObserver((r) => records.push(...r));
    observer.observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      characterData: true,
    });
    const list = document.createElement('ul');
    list.innerHTML = '<li>a</li><li>b</li><li><b>c</b></li>';
    document.body.append(list);
    document.body.setAttribute('data-x', '1');
    await new Promise((r) => setTimeout(r, 0));
    observer.disconnect();
    // ul + 3 li + b = 5 nodes, plus the attribute change.
    expect(mutatedNodes(records)).toBe(6);
  });
});

describe("the recorder's privacy options", () => {
  it('mask every input, the screenshot rules and editable text, or all text on request', () => {
    const on = replayOptions(false);
    expect(on.maskInputOptions).toMatchObject({
      text: true,
      password: true,
      textarea: true,
      select: true,
      hidden: true,
    });
    expect(on.maskTextSelector).toBe(REPLAY_MASK_TEXT_SELECTOR);
    expect(REPLAY_MASK_TEXT_SELECTOR.startsWith(MASK_SELECTOR)).toBe(true);
    expect(replayOptions(true).maskTextSelector).toBe('*');
  });

  it('block data-snag-block, the widget, canvas and media; record no cross-origin frame, canvas or font', () => {
    document.body.innerHTML =
      '<div data-snag-block id="a"></div><snag-launcher id="b"></snag-launcher><snag-panel id="c"></snag-panel><canvas id="d"></canvas><video id="e"></video><audio id="f"></audio><p id="g"></p>';
    const blocked = [...document.querySelectorAll(REPLAY_BLOCK_SELECTOR)].map((el) => el.id);
    expect(blocked).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    const o = replayOptions(false);
    expect(o).toMatchObject({
      checkoutEveryNms: replayLimits.checkoutMs,
      recordCanvas: false,
      recordCrossOriginIframes: false,
      collectFonts: false,
      inlineImages: false,
    });
  });
});
