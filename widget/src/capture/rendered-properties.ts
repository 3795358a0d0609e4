/**
 * The CSS properties the screenshot copies from each element's computed style. modern-screenshot copies
 * every computed property by default (about 480 in Chromium); reading them is most of a capture's cost
 * (2 µs each here, so about 1 ms per element). These are the ones that change what a page looks like;
 * the rest (cursor, transitions, animations, scroll snapping, user-select, …) cannot show in a still
 * image, and sizing constraints (min/max, aspect ratio) are moot because the used width and height are
 * copied. Longhands, as `getComputedStyle` lists them, plus the `white-space` shorthand for browsers that
 * have not split it yet. Each property costs: add one only for something a screenshot gets wrong.
 */
const sides = ['top', 'right', 'bottom', 'left'];
const corners = ['top-left', 'top-right', 'bottom-right', 'bottom-left'];

/** What every element's box needs to take the same space (all that an element out of view keeps). */
const box = [
  'display',
  'position',
  'float',
  'clear',
  'box-sizing',
  'width',
  'height',
  ...sides.map((s) => `margin-${s}`),
  ...sides.map((s) => `padding-${s}`),
  ...sides.flatMap((s) => [`border-${s}-width`, `border-${s}-style`]),
  'vertical-align',
];

/** What shows, for every visible element. */
const common = [
  ...box,
  ...sides,
  'z-index',
  ...sides.map((s) => `border-${s}-color`),
  ...corners.map((c) => `border-${c}-radius`),
  'overflow-x',
  'overflow-y',
  'visibility',
  'opacity',
  'color',
  'color-scheme',
  'accent-color',
  'appearance',
  'background-color',
  'background-image',
  'background-size',
  'background-position-x',
  'background-position-y',
  'background-repeat',
  'background-clip',
  'box-shadow',
  'outline-style',
  'outline-width',
  'outline-color',
  'font-family',
  'font-size',
  'font-weight',
  'font-style',
  'font-variant-caps',
  'line-height',
  'letter-spacing',
  'word-spacing',
  'text-align',
  'text-indent',
  'text-transform',
  'text-overflow',
  'text-shadow',
  'text-decoration-line',
  'text-decoration-style',
  'text-decoration-color',
  'white-space',
  'white-space-collapse',
  'text-wrap-mode',
  'word-break',
  'overflow-wrap',
  'direction',
  'writing-mode',
  'transform',
  'transform-origin',
  'translate',
  'rotate',
  'scale',
  'filter',
  'backdrop-filter',
  'mix-blend-mode',
  'clip-path',
  'object-fit',
  'object-position',
  '-webkit-line-clamp',
  '-webkit-box-orient',
  // Multi-column text (UIkit's `uk-column-1-2`): not told by `display`, so read on every element.
  'column-count',
  'column-width',
  'column-gap',
];

/**
 * The rest apply only to some elements, so each element reads only the groups its own display, its
 * parent's display and its kind call for (about a quarter fewer reads on a typical page).
 */
const flexOrGridContainer = [
  'flex-direction',
  'flex-wrap',
  'justify-content',
  'align-items',
  'align-content',
  'row-gap',
];
const gridContainer = [
  'grid-template-columns',
  'grid-template-rows',
  'grid-template-areas',
  'grid-auto-columns',
  'grid-auto-rows',
  'grid-auto-flow',
];
const flexOrGridItem = ['flex-grow', 'flex-shrink', 'flex-basis', 'order', 'align-self', 'justify-self'];
const gridItem = ['grid-column-start', 'grid-column-end', 'grid-row-start', 'grid-row-end'];
const table = ['table-layout', 'border-collapse', 'border-spacing'];
const listItem = ['list-style-type', 'list-style-position', 'list-style-image'];
const svg = ['fill', 'stroke', 'stroke-width'];

/**
 * - `rendered`: everything that shows, for visible elements.
 * - `autoHeight`: the same without `height`, for visible block boxes whose height is `auto` on the page
 *   (viewport.ts `sizedByContent`), so that their content sizes them as on the page. A copied height would
 *   stop the bottom margin of their last child from collapsing through them, and everything below would
 *   move up by that margin (issue 20: a 50 px gap lost on Swagger UI). Their min and max height then
 *   matter, so they are in.
 * - `layout`: for elements wholly outside the viewport, which are cloned empty: only what decides the space
 *   they take, so the visible elements around them lay out as on the page.
 */
export type PropertyKind = 'rendered' | 'autoHeight' | 'layout';

const lists = new Map<string, string[]>();

/** The properties to copy for an element of `display` in a parent of `parentDisplay`. */
export function propertiesFor(
  kind: PropertyKind,
  display: string,
  parentDisplay: string,
  isSvg: boolean,
): string[] {
  const container = /flex|grid/.test(display);
  const grid = display.includes('grid');
  const item = /flex|grid/.test(parentDisplay);
  const gridChild = parentDisplay.includes('grid');
  const tabular = display.includes('table');
  const listed = display === 'list-item';
  const key = `${kind}${+container}${+grid}${+item}${+gridChild}${+tabular}${+listed}${+isSvg}`;
  let list = lists.get(key);
  if (!list) {
    list = kind === 'layout' ? [...box] : [...common];
    if (item) list.push(...flexOrGridItem);
    if (gridChild) list.push(...gridItem);
    if (kind !== 'layout') {
      if (container) list.push(...flexOrGridContainer);
      if (grid) list.push(...gridContainer);
      if (tabular) list.push(...table);
      if (listed) list.push(...listItem);
      if (isSvg) list.push(...svg);
    }
    if (kind === 'autoHeight') list = [...list.filter((p) => p !== 'height'), 'min-height', 'max-height'];
    lists.set(key, list);
  }
  return list;
}

/** Every property any element may get: the library's list for the root, which no filter call sees. */
export const renderedProperties: string[] = [
  ...common,
  ...flexOrGridContainer,
  ...gridContainer,
  ...flexOrGridItem,
  ...gridItem,
  ...table,
  ...listItem,
  ...svg,
];
