/**
 * The screenshot of the visible viewport, drawn by modern-screenshot (docs/decisions-widget.md
 * "Screenshot library"): it clones the page with inlined computed styles into an SVG foreignObject and
 * rasterises that in the page, so there is no permission prompt and nothing on the page moves.
 *
 * What this module adds, and why:
 * - Only what is visible is cloned. Elements outside the viewport keep their box (computed width and
 *   height are copied) but lose their content, so the visible layout is unchanged while a long page
 *   costs about as much as a short one.
 * - Only the CSS properties that show in a still image are copied, and for the empty boxes out of view
 *   only those that decide their size (rendered-properties.ts).
 * - Images are fetched once per page (image-cache.ts).
 * - The root is `<html>` at the viewport's size, shifted by the scroll position with a negative margin
 *   (not a transform, which would become the containing block of `position: fixed` elements: the
 *   foreignObject is their viewport, so fixed headers land where the visitor sees them).
 * - Masked elements are emptied in the clone and painted over with an opaque block (mask.ts).
 * - Cross-origin images without CORS cannot be fetched, so they become a grey placeholder: the canvas
 *   only ever draws data URLs and is never tainted.
 */
import { createContext, destroyContext, domToCanvas } from 'modern-screenshot';
import { allElements, parentOf } from './dom';
import { imageFetcher } from './image-cache';
import { MASK_COLOUR, MASK_SELECTOR, maskRects, paintMasks } from './mask';
import { type PropertyKind, propertiesFor, renderedProperties } from './rendered-properties';

/** Grey box with a mountain glyph, in place of images the page's origin may not read. */
const PLACEHOLDER =
  'data:image/svg+xml,' +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="48" viewBox="0 0 64 48" preserveAspectRatio="none"><rect width="64" height="48" fill="#d9dce3"/><path d="M14 36l12-14 8 9 6-6 10 11z" fill="#b3b8c4"/></svg>',
  );

/**
 * An image that does not decode, for images that are broken on the page: the clone then shows them as the
 * page does (the browser's broken-image box with the alt text), not as the placeholder, which stands for
 * images the page shows but the screenshot may not read (issue 20: a 272×60 alt text on reveal.js's demo
 * became a grey block and moved the lines under it).
 */
const BROKEN = 'data:,';

/** The addresses of the visible `<img>` elements that have failed to load on the page. */
function brokenImages(keep: Set<Node>): Set<string> {
  const urls = new Set<string>();
  for (const n of keep) {
    if (n instanceof HTMLImageElement && n.complete && !n.naturalWidth && (n.currentSrc || n.src))
      urls.add(n.currentSrc || n.src);
  }
  return urls;
}

/** modern-screenshot's hidden helper frame (`__SANDBOX__…`), appended to the body while it works. */
const SANDBOX_ID = /^__SANDBOX__/;

/**
 * The library's cache of each tag's default computed style, kept from one capture to the next (it is per
 * capture otherwise): filling it reads every property of a sample of each tag, a quarter of a capture.
 */
const defaultStyles = new Map<string, unknown>();

/** Elements with a box that meets the viewport, plus all their ancestors (across shadow boundaries). */
function visibleTree(width: number, height: number, skip: (el: Element) => boolean): Set<Node> {
  const keep = new Set<Node>();
  for (const el of allElements()) {
    const r = el.getBoundingClientRect();
    if (r.bottom < 0 || r.right < 0 || r.top > height || r.left > width || skip(el)) continue;
    // No box at all (display: none, or inside it): its empty rectangle sits at 0,0, in view. Kept, a
    // closed menu's whole subtree was cloned with every property (issue 20: 2 s on UIkit's test page).
    if (!r.width && !r.height && !el.getClientRects().length) continue;
    for (let n: Node | null = el; n && !keep.has(n); n = parentOf(n)) keep.add(n);
  }
  return keep;
}

/** The colour behind everything, as the browser paints the canvas: html's background, else body's. */
function canvasColour(): string {
  for (const el of [document.documentElement, document.body]) {
    const c = el ? getComputedStyle(el).backgroundColor : '';
    if (c && c !== 'transparent' && c !== 'rgba(0, 0, 0, 0)') return c;
  }
  return '#ffffff';
}

/**
 * A block box whose height is `auto` on the page and whose last child's bottom margin can collapse through
 * its bottom (in flow, no bottom padding or border, not its own formatting context): its clone must not get
 * the used height, or that margin would stay inside it (rendered-properties.ts, kind `autoHeight`).
 * `getComputedStyle` gives the used height in pixels; the typed OM's computed value tells `auto` apart.
 * Where the browser has no typed OM (Firefox) the height is copied, as before.
 */
function sizedByContent(el: Element): boolean {
  if (typeof (el as HTMLElement).computedStyleMap !== 'function') return false;
  const s = getComputedStyle(el);
  if (s.display !== 'block' && s.display !== 'list-item') return false;
  if (s.position === 'absolute' || s.position === 'fixed' || s.float !== 'none') return false;
  if (s.overflowX !== 'visible' || s.overflowY !== 'visible') return false;
  if (Number.parseFloat(s.paddingBottom) || Number.parseFloat(s.borderBottomWidth)) return false;
  return String((el as HTMLElement).computedStyleMap().get('height')) === 'auto';
}

/** Whether `el`'s margin on `side` collapses with its first (top) or last (bottom) child's margin. */
function collapsesThrough(el: Element, s: CSSStyleDeclaration, side: 'top' | 'bottom'): boolean {
  if (s.display !== 'block' && s.display !== 'list-item') return false;
  if (s.position === 'absolute' || s.position === 'fixed' || s.float !== 'none') return false;
  if (s.overflowX !== 'visible' || s.overflowY !== 'visible') return false;
  const edge = side === 'top' ? [s.paddingTop, s.borderTopWidth] : [s.paddingBottom, s.borderBottomWidth];
  if (edge.some((v) => Number.parseFloat(v))) return false;
  return side === 'top' || sizedByContent(el);
}

/** The first or last in-flow child element, or null when text (a line box) comes before it. */
function edgeChild(el: Element, side: 'top' | 'bottom'): Element | null {
  const top = side === 'top';
  for (let n = top ? el.firstChild : el.lastChild; n; n = top ? n.nextSibling : n.previousSibling) {
    if (n instanceof Text && /\S/.test(n.data)) return null;
    if (!(n instanceof Element)) continue;
    const s = getComputedStyle(n);
    if (s.display === 'none' || s.position === 'absolute' || s.position === 'fixed' || s.float !== 'none')
      continue;
    return n;
  }
  return null;
}

/**
 * The margin an element out of view takes on `side` on the page: its own, collapsed with those of its
 * first (last) descendants that collapse through it. Its clone is an empty box of its used height, so
 * those children's margins must become its own, or the part of the page below it moves up (issue 20).
 */
function outerMargin(el: Element, side: 'top' | 'bottom'): number {
  let positive = 0;
  let negative = 0;
  for (let e: Element | null = el; e; ) {
    const s = getComputedStyle(e);
    const m = Number.parseFloat(side === 'top' ? s.marginTop : s.marginBottom) || 0;
    positive = Math.max(positive, m);
    negative = Math.min(negative, m);
    e = collapsesThrough(e, s, side) ? edgeChild(e, side) : null;
  }
  return positive + negative;
}

/**
 * What the page's root and body do as the document, done to their clones, which are ordinary elements
 * inside the picture (issue 20):
 * - The root's overflow belongs to the viewport, not to `<html>`: kept on the clone (an element as tall as
 *   the viewport and shifted up by the scroll position), `overflow-y: scroll` clipped everything below the
 *   first screen of a scrolled page and drew empty scrollbars. The clone's overflow is visible.
 * - The body's overflow, when the root's is visible, is the viewport's too (propagation); otherwise the
 *   body is a scroller of its own and keeps it.
 * - The root is a block formatting context, so its children's margins never collapse through it; the
 *   clone is `flow-root` for the same reason (its negative top margin is the scroll position).
 * - Absolutely positioned elements without a positioned ancestor are placed in the initial containing
 *   block: the first screen of the document, which scrolls with it. The clone is that block (`position:
 *   relative`, the viewport's size, shifted by the scroll position); in the foreignObject's own initial
 *   block, which does not scroll, they were drawn a scroll offset too low (UIkit's sticky navbar). A page
 *   whose root is positioned itself (`html { position: relative; min-height: 100% }` for a footer at the
 *   bottom) has its root as that block, at its own height: the clone takes that height.
 */
function documentLikeRoot(root: HTMLElement, body: HTMLElement | null, page: RootState): void {
  root.style.setProperty('overflow', 'visible', 'important');
  root.style.setProperty('display', 'flow-root', 'important');
  root.style.setProperty('position', page.position === 'static' ? 'relative' : page.position, 'important');
  if (page.position !== 'static') root.style.setProperty('height', `${page.height}px`, 'important');
  if (body && page.overflowVisible) body.style.setProperty('overflow', 'visible', 'important');
}

/** What documentLikeRoot needs of the page's root, read when the capture starts. */
interface RootState {
  position: string;
  height: number;
  overflowVisible: boolean;
}

function rootState(): RootState {
  const html = document.documentElement;
  const s = getComputedStyle(html);
  return {
    position: s.position,
    height: html.getBoundingClientRect().height,
    overflowVisible: s.overflowX === 'visible' && s.overflowY === 'visible',
  };
}

/** Empties a masked clone: no value, no text, no children; an opaque block of the mask colour. */
function blankMaskedClone(clone: Element): void {
  clone.replaceChildren();
  clone.removeAttribute('value');
  clone.removeAttribute('placeholder');
  if (clone instanceof HTMLElement || clone instanceof SVGElement) {
    clone.style.setProperty('background', MASK_COLOUR, 'important');
    clone.style.setProperty('color', 'transparent', 'important');
  }
}

// The clone keeps the original's attributes, so the mask selector finds the same elements in it; a
// `[data-snag-mask]` clone is reached after its descendants and empties them all.
const isMaskedClone = (node: Node): node is Element => node instanceof Element && node.matches(MASK_SELECTOR);

export async function viewportCanvas(skip: (el: Element) => boolean): Promise<HTMLCanvasElement> {
  const html = document.documentElement;
  const scale = window.devicePixelRatio || 1;
  // The layout viewport without scrollbars: the clone must lay out at the width the page has.
  const width = html.clientWidth || window.innerWidth;
  const height = document.compatMode === 'CSS1Compat' ? html.clientHeight : window.innerHeight;
  const { scrollX, scrollY } = window;
  // Everything below is read now, before the first await, so the picture is of the moment of the click.
  const keep = visibleTree(width, height, skip);
  const masks = maskRects();
  const root = rootState();
  const broken = brokenImages(keep);
  const fetchImage = imageFetcher(PLACEHOLDER);
  // Inline elements out of view next to visible ones are kept whole, with their text: dropping it would
  // re-flow the visible lines around them.
  const whole = new Set<Node>();
  /** The element out of view just let through, whose clone comes next, childless, to onCloneEachNode. */
  let emptied: { tag: string; top: number; bottom: number } | null = null;

  // The library reads the property list from its context for each element it clones, right after asking
  // `filter` about it, one element at a time; so the filter picks the list for the element at hand.
  const displays = new Map<Node, string>();
  const displayOf = (el: Node): string => {
    let d = displays.get(el);
    if (d === undefined) {
      d = el instanceof Element ? getComputedStyle(el).display : '';
      displays.set(el, d);
    }
    return d;
  };
  const styleList = (kind: PropertyKind, el: Element, parent: Node) => {
    (context as { includeStyleProperties: string[] }).includeStyleProperties = propertiesFor(
      kind,
      displayOf(el),
      displayOf(parent),
      el instanceof SVGElement,
    );
  };
  const filter = (node: Node): boolean => {
    if (node instanceof Element) {
      if (skip(node) || node.tagName === 'HEAD' || SANDBOX_ID.test(node.id)) return false;
      // An empty canvas the page has not drawn on yet: the library would give it a 2D context, which
      // would stop the page from later asking for WebGL.
      if (node instanceof HTMLCanvasElement && (!node.width || !node.height)) return false;
    }
    const parent = parentOf(node);
    if (!parent) return true;
    if (whole.has(parent)) {
      whole.add(node);
      if (node instanceof Element) styleList('rendered', node, parent);
      return true;
    }
    if (!keep.has(parent)) return false; // Inside an element out of view: its box stays, its content goes.
    if (!(node instanceof Element)) return true;
    if (keep.has(node)) {
      // A masked element is emptied in the clone (blankMaskedClone): it keeps the height it has on the page.
      const auto = !node.matches(MASK_SELECTOR) && sizedByContent(node);
      styleList(auto ? 'autoHeight' : 'rendered', node, parent);
      return true;
    }
    const display = displayOf(node);
    if (display.startsWith('inline') || display === 'contents') {
      whole.add(node);
      styleList('rendered', node, parent);
      return true;
    }
    styleList('layout', node, parent); // Out of view: an empty box of the same size,
    // with the margins its content gave it (set on its clone, which onCloneEachNode receives next).
    emptied = { tag: node.tagName, top: outerMargin(node, 'top'), bottom: outerMargin(node, 'bottom') };
    return true;
  };

  // The context is made on an empty element and then pointed at <html>: creating it on <html> would
  // wait for every <img> on the page to load, and a `loading="lazy"` image below the fold never does
  // (30 s, measured). Images inside the viewport have loaded or are drawn as they are.
  let context: unknown;
  context = await createContext(document.createElement('div'), {
    width,
    height,
    scale,
    backgroundColor: canvasColour(),
    style: { marginTop: `${-scrollY}px`, marginLeft: `${-scrollX}px` },
    filter,
    includeStyleProperties: renderedProperties,
    fetch: { placeholderImage: PLACEHOLDER },
    fetchFn: (url: string) => (broken.has(url) ? Promise.resolve(BROKEN) : fetchImage(url)),
    timeout: 10_000,
    // Scrolled boxes inside the page show their scrolled content. The library treats the document's own
    // scroll the same way, as a transform on <body>; the margin above already does that, and a transform
    // would also capture the fixed elements, so onCloneNode puts body's own transform back.
    features: { restoreScrollPosition: true },
    onCloneNode: (clone) => {
      if (!(clone instanceof HTMLElement)) return;
      const body = clone.querySelector(':scope > body');
      const clonedBody = body instanceof HTMLElement ? body : null;
      if (clonedBody && document.body) clonedBody.style.transform = getComputedStyle(document.body).transform;
      documentLikeRoot(clone, clonedBody, root);
    },
    onCloneEachNode: (clone) => {
      if (emptied && clone instanceof HTMLElement && clone.tagName === emptied.tag) {
        clone.style.marginTop = `${emptied.top}px`;
        clone.style.marginBottom = `${emptied.bottom}px`;
      }
      emptied = null;
      if (isMaskedClone(clone)) blankMaskedClone(clone);
    },
  });
  const internals = context as { node: Node; defaultComputedStyles: Map<string, unknown> };
  internals.node = html;
  internals.defaultComputedStyles = defaultStyles;
  let canvas: HTMLCanvasElement;
  try {
    canvas = await domToCanvas(context as HTMLElement);
  } finally {
    internals.defaultComputedStyles = new Map(); // destroyContext clears it: keep ours.
    destroyContext(context as Parameters<typeof destroyContext>[0]); // Removes its helper frame.
  }
  paintMasks(canvas, masks, canvas.width / width);
  return canvas;
}
