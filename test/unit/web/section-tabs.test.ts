/** The section tabs' scrolling row: which of its edges hide more tabs (and so fade). */
import { describe, expect, it } from 'vitest';
import { moreAt } from '../../../web/src/components/SectionTabs';

describe('the section tab row', () => {
  it('fades the edges that have more tabs behind them, and none when every tab shows', () => {
    expect(moreAt(0, 390, 390)).toBe('none');
    expect(moreAt(0, 390, 700)).toBe('end');
    expect(moreAt(120, 390, 700)).toBe('both');
    expect(moreAt(310, 390, 700)).toBe('start');
    // Sub-pixel rounding of a row scrolled to its end is not "more".
    expect(moreAt(309.5, 390, 700)).toBe('start');
  });
});
