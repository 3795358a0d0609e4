/**
 * WCAG 2 colour contrast, shared by the dashboard (the widget colour's check, web/src/projects/model.ts) and
 * the reporter's status page (issue 24), which sets its header in the client's widget colour and picks black
 * or white text on it, whichever reads better: one of them always reaches 4.5:1 on any colour.
 */

/** WCAG 2 relative luminance of `#RRGGBB`. */
function luminance(hex: string): number {
  const channel = (i: number) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** WCAG contrast ratio of two `#RRGGBB` colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** Black or white, whichever contrasts more with `background` (`#RRGGBB`). */
export const readableOn = (background: string): '#000000' | '#FFFFFF' =>
  contrastRatio(background, '#000000') >= contrastRatio(background, '#FFFFFF') ? '#000000' : '#FFFFFF';
