/**
 * Mantine theme: the Snag brand colour (#4F4EAE, the default widget colour) as the primary palette, and
 * palettes that meet WCAG 2.2 AA (issue 20, docs/decisions-web.md "Accessible colours").
 *
 * Mantine draws text in shades 6-9: filled buttons are shade 6 under white text, `c="red"` text and
 * outlines are shade 6, the light variant (badges, alerts) writes shade 9 on shade 1. Mantine's own
 * teal, green, red, orange, yellow and blue fail 4.5:1 there (white on teal-6 is 2.6:1), and its dimmed
 * grey (gray-6, #868e96) is 3.3:1 on white. So shades 0-5 stay Mantine's (backgrounds, borders) and
 * shades 6-9 are the same hues darkened until each reads at 4.5:1 or more on white, on the page's grey
 * (gray-0) and on its own shade 1; test/unit/web/theme.test.ts computes every pair.
 */
import { createTheme, DEFAULT_THEME, type MantineColorsTuple } from '@mantine/core';

const brand: MantineColorsTuple = [
  '#f0f0fa',
  '#dfdff4',
  '#bcbce7',
  '#9797da',
  '#7878cf',
  '#6463c7',
  '#4f4eae',
  '#43429a',
  '#393887',
  '#2e2d70',
];

/** Mantine's palette with its text shades (6-9) replaced. */
function withTextShades(name: string, shades: [string, string, string, string]): MantineColorsTuple {
  const light = (DEFAULT_THEME.colors[name] ?? []).slice(0, 6);
  return [...light, ...shades] as unknown as MantineColorsTuple;
}

/**
 * Shade 6 is 4.6:1 on shade 1, 7 is 5.6:1, 8 is 6.6:1 and 9 is 7.6:1, so each is also a filled
 * background for white text and its successor the hover. Gray keeps 7-9 (already 7.7:1 and more);
 * its 6 is the dimmed text colour, 4.6:1 even on gray-1.
 */
export const accessibleColors = {
  brand,
  gray: withTextShades('gray', ['#686e74', '#495057', '#343a40', '#212529']),
  teal: withTextShades('teal', ['#0c7a59', '#086b4d', '#065f44', '#05553d']),
  green: withTextShades('green', ['#297a37', '#216c2f', '#1d6029', '#1b5627']),
  red: withTextShades('red', ['#b83c3c', '#a92c2c', '#992222', '#8a1d1d']),
  orange: withTextShades('orange', ['#a4520d', '#9a4004', '#8c3607', '#822b09']),
  yellow: withTextShades('yellow', ['#906503', '#845600', '#7e4900', '#763d00']),
  blue: withTextShades('blue', ['#1a69ae', '#145b9b', '#12518b', '#11487b']),
};

export const theme = createTheme({
  primaryColor: 'brand',
  primaryShade: 6,
  colors: accessibleColors,
  defaultRadius: 'md',
  cursorType: 'pointer',
  fontFamily:
    'Inter, ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: { fontWeight: '650' },
  components: {
    // A link is told apart from the text around it by its underline, not its colour alone (WCAG 1.4.1).
    Anchor: { defaultProps: { underline: 'always' } },
    Button: { defaultProps: { fw: 600 } },
    // A tooltip floats in a portal outside every landmark (axe `region`). Its text reaches assistive
    // technology through its trigger (the trigger's name, or aria-describedby, which reads hidden text),
    // so the floating copy is hidden from it rather than read a second time out of place.
    Tooltip: { defaultProps: { 'aria-hidden': true } },
  },
});
