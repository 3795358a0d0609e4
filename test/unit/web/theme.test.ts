/**
 * The dashboard theme's colours meet WCAG 2.2 AA (issue 20, docs/decisions-web.md "Accessible colours"),
 * computed from the palette values: Mantine draws text in shades 6-9 (filled backgrounds under white
 * text, `c="red"`, outlines, and shade 9 on shade 1 in the light variant) and dimmed text in gray-6, on
 * white and on the page's gray-0. The browser test (test/e2e/a11y.test.ts) checks the screens themselves.
 */
import { DEFAULT_THEME } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { accessibleColors, theme } from '../../../web/src/app/theme';
import { contrastRatio } from '../../../web/src/projects/model';

const white = '#ffffff';
const pageGrey = DEFAULT_THEME.colors.gray[0] as string;
const palettes = Object.entries(accessibleColors);

describe('theme colours (WCAG 2.2 AA, 4.5:1 for text)', () => {
  it('is the theme Mantine gets', () => {
    expect(theme.colors).toEqual(accessibleColors);
    expect(theme.primaryShade).toBe(6);
  });

  it.each(palettes)('%s: ten #RRGGBB shades, 0-5 as Mantine has them (brand: its own)', (name, shades) => {
    expect(shades).toHaveLength(10);
    for (const s of shades) expect(s).toMatch(/^#[0-9a-f]{6}$/i);
    if (name !== 'brand') expect(shades.slice(0, 6)).toEqual(DEFAULT_THEME.colors[name]?.slice(0, 6));
  });

  it.each(palettes)('%s: shades 6-9 are text on white, on the page grey and on shade 1', (_name, shades) => {
    for (const shade of shades.slice(6)) {
      expect(contrastRatio(shade, white)).toBeGreaterThanOrEqual(4.5);
      expect(contrastRatio(shade, pageGrey)).toBeGreaterThanOrEqual(4.5);
      expect(contrastRatio(shade, shades[1] as string)).toBeGreaterThanOrEqual(4.5);
    }
  });

  it.each(palettes)('%s: the light variant writes shade 9 on shade 1', (_name, shades) => {
    expect(contrastRatio(shades[9] as string, shades[1] as string)).toBeGreaterThanOrEqual(4.5);
  });

  it('dimmed text (gray-6) is 4.5:1 on white, gray-0 and gray-1', () => {
    const gray = accessibleColors.gray;
    for (const surface of [white, gray[0], gray[1]]) {
      expect(contrastRatio(gray[6], surface)).toBeGreaterThanOrEqual(4.5);
    }
  });

  it("would fail Mantine's own shades (the issue's findings)", () => {
    const mantine = DEFAULT_THEME.colors;
    expect(contrastRatio(mantine.gray[6] as string, white)).toBeLessThan(4.5); // dimmed, 3.3:1
    expect(contrastRatio(white, mantine.teal[6] as string)).toBeLessThan(4.5); // Resolve, 2.6:1
    expect(contrastRatio(white, mantine.red[6] as string)).toBeLessThan(4.5); // delete, 3.3:1
    expect(contrastRatio(mantine.teal[9] as string, mantine.teal[1] as string)).toBeLessThan(4.5); // Active
  });

  it('links are underlined, not told apart by colour alone', () => {
    expect(theme.components?.Anchor?.defaultProps).toMatchObject({ underline: 'always' });
  });
});
