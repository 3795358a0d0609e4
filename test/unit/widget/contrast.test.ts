/**
 * The widget dialog's colours meet WCAG 2.2 AA (issue 20): each text colour of the app's style sheet
 * (widget/src/app/styles.ts) against the surface it is drawn on, computed from the colour values the sheet
 * carries, for the light dialog and the dark annotation editor, in both schemes. The header's text is the
 * scheme's colour on the customer's colour: the white scheme is checked on the default colour, the dark
 * scheme (dark text) on a light colour such as it is meant for; a customer's own colour is the customer's
 * choice, which the dashboard's Widget screen warns about.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { contrastRatio } from '../../../web/src/projects/model';
import { appCss } from '../../../widget/src/app/styles';
import { schemeForeground } from '../../../widget/src/launcher';

const schemes = {
  white: appCss({ color: '#4F4EAE', scheme: 'white', position: 'rightMiddle' }),
  black: appCss({ color: '#F2C94C', scheme: 'black', position: 'rightMiddle' }),
};
let css = schemes.white;

/** The declarations of the rule whose selector is exactly `selector` (the first, as the sheet is flat). */
function declarations(selector: string): Map<string, string> {
  const escaped = selector.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`(?:^|[}\\n])${escaped}\\{([^}]*)\\}`).exec(css);
  if (!match) throw new Error(`no rule ${selector} in the widget's style sheet`);
  return new Map(
    (match[1] as string).split(';').map((d) => {
      const at = d.indexOf(':');
      return [d.slice(0, at).trim(), d.slice(at + 1).trim()] as [string, string];
    }),
  );
}

/** A translucent `rgba(r,g,b,a)` laid over white, the lightest screenshot it can sit on, as `#RRGGBB`. */
function overWhite(value: string): string {
  const [r, g, b, a] = (/rgba\(([^)]*)\)/.exec(value)?.[1] ?? '').split(',').map(Number) as number[];
  const mix = (c = 0) => Math.round(c * (a ?? 1) + 255 * (1 - (a ?? 1)));
  return `#${[r, g, b].map((c) => mix(c).toString(16).padStart(2, '0')).join('')}`.toUpperCase();
}

/** A colour of the sheet as `#RRGGBB` (it writes #fff too): the property of the rule, with `var(--x)` read from `.w`. */
function colour(selector: string, property: string): string {
  let value = declarations(selector).get(property);
  const variable = /^var\((--[a-z]+)\)$/.exec(value ?? '');
  if (variable) value = declarations('.w').get(variable[1] as string);
  const hex = /#([0-9a-f]{6}|[0-9a-f]{3})\b/i.exec(value ?? '')?.[1];
  if (!hex) throw new Error(`${selector} { ${property} } is not a hex colour: ${value}`);
  // #fff is #FFFFFF.
  const full = hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex;
  return `#${full.toUpperCase()}`;
}

/** [what, text colour, surface colour]; the dialog's surface is `.dlg`'s background. */
const dialog = () => colour('.dlg', 'background');
const pairs: [string, () => string, () => string][] = [
  ['body text on the dialog', () => colour('.w', 'color'), dialog],
  ['muted text (hints, counts, footer) on the dialog', () => colour('.w', '--m'), dialog],
  [
    'muted text on the drop zone while a file is over it',
    () => colour('.drop', 'color'),
    () => colour('.drop.over', 'background'),
  ],
  ['field errors on the dialog', () => colour('.err', 'color'), dialog],
  [
    'placeholders in the fields',
    () => colour('.in::placeholder', 'color'),
    () => colour('.in', 'background'),
  ],
  ['buttons', () => colour('.btn', 'color'), () => colour('.btn', 'background')],
  ['notes', () => colour('.note,.alert', 'color'), () => colour('.note,.alert', 'background')],
  ['alerts', () => colour('.alert', 'color'), () => colour('.alert', 'background')],
  ['the editor (dark) text', () => colour('.ed', 'color'), () => colour('.ed', 'background')],
  [
    "the editor's pressed tool",
    () => colour('.tb .ic[aria-pressed=true]', 'color'),
    () => colour('.tb .ic[aria-pressed=true]', 'background'),
  ],
  ["the editor's secondary buttons", () => colour('.eb .btn', 'color'), () => colour('.ed', 'background')],
  [
    "the editor's text boxes over a white screenshot",
    () => colour('.ti', 'color'),
    () => overWhite(declarations('.ti').get('background') ?? ''),
  ],
  ["the header: the scheme's text on the colour", () => colour('.w', '--f'), () => colour('.w', '--c')],
];

describe.each(Object.keys(schemes) as (keyof typeof schemes)[])(
  'widget dialog colours, %s scheme (WCAG 2.2 AA, 4.5:1 for text)',
  (scheme) => {
    beforeEach(() => {
      css = schemes[scheme];
    });

    it.each(pairs)('%s', (_what, text, surface) => {
      expect(contrastRatio(text(), surface())).toBeGreaterThanOrEqual(4.5);
    });

    it('reads the colours it checks from the sheet, so a changed colour is checked', () => {
      expect(colour('.in::placeholder', 'color')).toBe('#6B7080');
      expect(colour('.w', '--f')).toBe(schemeForeground[scheme].toUpperCase());
    });
  },
);

describe('widget dialog colours: the finding', () => {
  it('would fail the old placeholder grey (#8A8FA0, 3.2:1)', () => {
    expect(contrastRatio('#8A8FA0', '#FFFFFF')).toBeLessThan(4.5);
  });
});
