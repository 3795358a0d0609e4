import { describe, expect, it } from 'vitest';
import { layeredBackgroundEnds, repairEvent, repairLayers } from '../../../widget/src/activity/css-layers';

/** A CSSOM style rule as Chromium answers for the creative page's hero (only what the repair reads). */
function rule(values: Record<string, string>, important = false): CSSRule {
  const style = {
    getPropertyValue: (name: string) => values[name] ?? '',
    getPropertyPriority: () => (important ? 'important' : ''),
  };
  return { style } as unknown as CSSRule;
}

const hero = {
  background: 'linear-gradient(red, blue) center center / cover no-repeat scroll, url("x.jpg")',
  'background-position-x': 'center',
  'background-position-y': 'center',
  'background-size': 'cover',
  'background-repeat': 'no-repeat',
  'background-attachment': 'scroll, initial',
  'background-origin': 'initial',
  'background-clip': 'border-box',
};
const heroText = `.hero { background: ${hero.background}; }`;

describe('finding layered background declarations in a sheet', () => {
  it('finds only `background` shorthands of more than one layer, outside strings, comments and functions', () => {
    const css = `a { background: red; } b { background: url("a,b.png"), red; } c { content: "; background: x, y"; }
/* d { background: x, y; } */ e { background-color: rgb(1, 2, 3); } f { background: rgb(1, 2, 3) }`;
    const ends = layeredBackgroundEnds(css);
    expect(ends).toHaveLength(1);
    expect(css[ends[0]!]).toBe(';');
    expect(css.slice(0, ends[0])).toMatch(/b \{ background: url\("a,b\.png"\), red$/);
  });

  it('finds a declaration a rule closes without a semicolon, and one after a nested rule', () => {
    expect(layeredBackgroundEnds('a { b { color: red; } background: url(x), red }')).toEqual([46]);
  });
});

describe('repairing a sheet', () => {
  it('appends the longhands after the shorthand, with a list item left at its initial value spelled out', () => {
    const out = repairLayers(heroText, [rule(hero)]);
    expect(out).toBe(
      `.hero { background: ${hero.background}; background-position-x: center; background-position-y: center; background-size: cover; background-repeat: no-repeat; background-attachment: scroll, scroll; background-origin: initial; background-clip: border-box; }`,
    );
  });

  it('keeps `!important`, and reaches rules inside @media and @import', () => {
    const media = { cssRules: [rule({ color: 'red' }), rule(hero, true)] } as unknown as CSSRule;
    const imported = { styleSheet: { cssRules: [media] } } as unknown as CSSRule;
    const out = repairLayers(`@media print { a { color: red; } ${heroText} }`, [imported]);
    expect(out).toContain('background-size: cover !important;');
  });

  it('leaves the text as rrweb wrote it when it and the CSSOM disagree, or when a value waits for a var()', () => {
    expect(repairLayers(heroText, [])).toBe(heroText);
    expect(repairLayers(heroText, [rule(hero), rule(hero)])).toBe(heroText);
    expect(repairLayers(heroText, [rule({ ...hero, 'background-size': '' })])).toBe(heroText);
    const single = '.a { background: url("x.jpg") 0% 0% / cover; }';
    expect(repairLayers(single, [rule({ background: 'url("x.jpg") 0% 0% / cover' })])).toBe(single);
  });
});

describe("rrweb's marks between a style's text nodes", () => {
  const marked = () => ({
    id: 5,
    attributes: { _cssText: 'a { --c: #6/* rr_split */66; }' },
    childNodes: [],
  });
  const noMirror = { getNode: () => null };

  it('go from a style a change adds (its replay would keep them inside the colour)', () => {
    const event = { type: 3, data: { source: 0, adds: [{ parentId: 1, node: marked() }], attributes: [] } };
    repairEvent(event, noMirror);
    expect(event.data.adds[0]!.node.attributes._cssText).toBe('a { --c: #666; }');
  });

  it('stay in a full snapshot, whose replay splits the text there again', () => {
    const event = { type: 2, data: { node: { id: 1, childNodes: [marked()] } } };
    repairEvent(event, noMirror);
    expect(event.data.node.childNodes[0]!.attributes._cssText).toContain('/* rr_split */');
  });
});
