/**
 * Background layers as the page has them, in the recording (docs/replay.md "Recorder"; decisions RR-1 and
 * RR-2 in docs/decisions-widget.md).
 *
 * rrweb copies a style sheet into the recording from the CSSOM (`rule.cssText`), and Chromium writes a
 * `background` shorthand of several layers lossily there: the size, position, repeat, attachment, origin
 * and clip lists given for all layers (`background: linear-gradient(…), url(…); background-size: cover`)
 * come out attached to the first layer only, so the replay draws the other layers at their initial values
 * (an image at its own size, top left, instead of `cover`). The longhands (`getPropertyValue
 * ('background-size')`, …) are right. So after each multi-layer `background` declaration of a recorded
 * sheet this appends those longhands, which win over the shorthand in the same rule: the shorthand keeps
 * the images and the colour (already right, and the only part with addresses, which rrweb has made
 * absolute), the longhands bring back the rest.
 *
 * The declarations are found in the recorded text and in the CSSOM in the same order (rrweb writes the
 * rules in order, changing only addresses and selectors); when the two counts differ, the text stays as
 * rrweb wrote it. Where the CSSOM is reached: the full snapshot's and each added node's `_cssText` (a
 * `<link>` or `<style>`, found through rrweb's mirror), a late-loaded `<link>`'s attribute change, and the
 * adopted style sheets of the document and of shadow roots. Rules the page inserts later (`insertRule`) are
 * recorded as the page wrote them, so need nothing. One more repair of the recorded text, `unsplit`, is
 * below.
 */

/** rrweb's event and source numbers used here (@rrweb/types). */
const FULL_SNAPSHOT = 2;
const INCREMENTAL = 3;
const MUTATION = 0;
const ADOPTED_STYLE_SHEET = 15;

/** The longhands a multi-layer shorthand loses; the images and the colour are right in it. */
const LONGHANDS: [name: string, initial: string][] = [
  ['background-position-x', '0%'],
  ['background-position-y', '0%'],
  ['background-size', 'auto'],
  ['background-repeat', 'repeat'],
  ['background-attachment', 'scroll'],
  ['background-origin', 'padding-box'],
  ['background-clip', 'border-box'],
];

/**
 * Calls `each(at, commas)` for each list separator and declaration boundary of `css` outside strings,
 * comments and parentheses: the scanner both sides share, so they agree on what a declaration is.
 */
function scan(css: string, at: (i: number, c: number) => void): void {
  let depth = 0;
  for (let i = 0; i < css.length; i++) {
    const c = css.charCodeAt(i);
    if (c === 34 || c === 39) {
      // A string: to its closing quote, escapes skipped.
      for (i++; i < css.length && css.charCodeAt(i) !== c; i++) if (css.charCodeAt(i) === 92) i++;
    } else if (c === 47 && css.charCodeAt(i + 1) === 42) {
      const end = css.indexOf('*/', i + 2);
      i = end < 0 ? css.length : end + 1;
    } else if (c === 40) depth++;
    else if (c === 41) depth = Math.max(0, depth - 1);
    else if (depth === 0 && (c === 44 || c === 59 || c === 123 || c === 125)) at(i, c);
  }
}

/**
 * Where each `background` declaration of more than one layer ends in `css`: the index of its `;` (or of
 * the `}` closing its rule).
 */
export function layeredBackgroundEnds(css: string): number[] {
  const ends: number[] = [];
  if (!css.includes('background:')) return ends;
  let open = false;
  let layers = 1;
  scan(css, (i, c) => {
    if (c === 44) {
      if (open) layers++;
      return;
    }
    if (open && layers > 1) ends.push(i);
    open = false;
    // A declaration starts after `{`, `;` or (nested rules) `}`.
    let j = i + 1;
    while (css.charCodeAt(j) <= 32) j++;
    if (css.charCodeAt(j) === 98 && css.startsWith('background:', j)) {
      open = true;
      layers = 1;
    }
  });
  return ends;
}

/** The longhands of `style` as declarations, or '' when it has no layered shorthand to repair. */
function longhands(style: CSSStyleDeclaration): string {
  const shorthand = style.getPropertyValue('background');
  if (!shorthand || layeredBackgroundEnds(`{background:${shorthand}}`).length === 0) return '';
  const out: string[] = [];
  for (const [name, initial] of LONGHANDS) {
    const value = style.getPropertyValue(name);
    // Empty: the value waits for a var(); then the text is the author's own and loses nothing.
    if (!value) return '';
    // Chromium lists a layer the shorthand left at its initial value as `initial`, which a list
    // cannot hold: that layer's initial value instead.
    const list =
      value === 'initial'
        ? value
        : splitList(value)
            .map((v) => (v === 'initial' ? initial : v))
            .join(', ');
    out.push(`${name}: ${list}${style.getPropertyPriority(name) ? ' !important' : ''};`);
  }
  return out.join(' ');
}

function splitList(value: string): string[] {
  const parts: string[] = [];
  let from = 0;
  scan(value, (i, c) => {
    if (c !== 44) return;
    parts.push(value.slice(from, i).trim());
    from = i + 1;
  });
  parts.push(value.slice(from).trim());
  return parts;
}

/** The longhands of every layered shorthand in `rules`, in the order their text lists them. */
function layeredStyles(rules: ArrayLike<CSSRule>, out: string[]): string[] {
  for (const rule of Array.from(rules)) {
    const style = (rule as CSSStyleRule).style as CSSStyleDeclaration | undefined;
    if (style) {
      const fix = longhands(style);
      if (fix) out.push(fix);
    }
    try {
      // An @import's sheet is written in place of the rule; a cross-origin one cannot be read (nor was it).
      const inner = (rule as CSSImportRule).styleSheet?.cssRules ?? (rule as CSSGroupingRule).cssRules;
      if (inner) layeredStyles(inner, out);
    } catch {}
  }
  return out;
}

/** `css` (rrweb's text of `rules`) with the longhands after each layered shorthand. */
export function repairLayers(css: string, rules: ArrayLike<CSSRule>): string {
  const ends = layeredBackgroundEnds(css);
  if (ends.length === 0) return css;
  const fixes = layeredStyles(rules, []);
  if (fixes.length !== ends.length) return css;
  let out = '';
  let from = 0;
  ends.forEach((end, k) => {
    if (css[end] === ';') {
      out += `${css.slice(from, end + 1)} ${fixes[k]}`;
      from = end + 1;
    } else {
      out += `${css.slice(from, end)}; ${fixes[k]} `;
      from = end;
    }
  });
  return out + css.slice(from);
}

interface SerializedNode {
  id: number;
  attributes?: Record<string, unknown>;
  childNodes?: SerializedNode[];
}

type Mirror = { getNode(id: number): Node | null };

function repairNode(node: SerializedNode | undefined, mirror: Mirror): void {
  if (!node) return;
  const css = node.attributes?._cssText;
  if (typeof css === 'string') {
    const sheet = (mirror.getNode(node.id) as HTMLStyleElement | null)?.sheet;
    if (sheet) node.attributes!._cssText = repairLayers(css, sheet.cssRules);
  }
  for (const child of node.childNodes ?? []) repairNode(child, mirror);
}

/** rrweb's mark between the parts of a `<style>` that has several text nodes. */
const SPLIT = '/* rr_split */';

/**
 * A `<style>` of several text nodes (a template's, as Lit renders rapidoc's theme) added while recording:
 * rrweb marks where each text node's part begins in the CSSOM's text, by a guess that can fall inside a
 * token (`#6/* rr_split *\/66`). A full snapshot's replay splits the text there again, but a change's
 * replay puts the whole text, marks included, into the element, where a mark inside a token breaks the
 * declaration (rapidoc's colours). Without the marks the element gets the whole text and its text nodes,
 * added after it, take it over.
 */
function unsplit(node: SerializedNode | undefined): void {
  const css = node?.attributes?._cssText;
  if (typeof css === 'string' && css.includes(SPLIT)) node!.attributes!._cssText = css.split(SPLIT).join('');
}

interface AdoptedData {
  id: number;
  styleIds: number[];
  styles?: { styleId: number; rules: { rule: string; index?: number }[] }[];
}

/** Repairs, in place, the style sheet text an rrweb event carries; answers the event. */
export function repairEvent<E extends { type: number; data?: unknown }>(event: E, mirror: Mirror): E {
  try {
    const data = event.data as {
      source?: number;
      node?: SerializedNode;
      adds?: { node: SerializedNode }[];
      attributes?: { id: number; attributes: Record<string, unknown> }[];
    };
    if (event.type === FULL_SNAPSHOT) repairNode(data.node, mirror);
    else if (event.type === INCREMENTAL && data.source === MUTATION) {
      for (const add of data.adds ?? []) {
        repairNode(add.node, mirror);
        unsplit(add.node);
      }
      for (const change of data.attributes ?? [])
        if (typeof change.attributes._cssText === 'string') repairNode(change as SerializedNode, mirror);
    } else if (event.type === INCREMENTAL && data.source === ADOPTED_STYLE_SHEET) {
      const adopted = data as unknown as AdoptedData;
      // The document, or the element whose shadow root adopted the sheets.
      const host = mirror.getNode(adopted.id) as unknown as {
        adoptedStyleSheets?: CSSStyleSheet[];
        shadowRoot?: ShadowRoot | null;
      } | null;
      const sheets = host?.adoptedStyleSheets ?? host?.shadowRoot?.adoptedStyleSheets;
      for (const style of adopted.styles ?? []) {
        const sheet = sheets?.[adopted.styleIds.indexOf(style.styleId)];
        if (!sheet) continue;
        for (const rule of style.rules) {
          const cssRule = sheet.cssRules[rule.index ?? -1];
          if (cssRule) rule.rule = repairLayers(rule.rule, [cssRule]);
        }
      }
    }
  } catch {
    // A repair is a nicety: the event as rrweb made it is recorded rather than lost.
  }
  return event;
}
