/**
 * Privacy masking (docs/widget-api.md "Privacy: what the widget never sends"): password fields, card
 * number and security code fields, one-time codes, and anything marked `data-snag-mask` or
 * `data-snag-block` with all that is inside it. Their values and text never reach a screenshot, a
 * snapshot, a step's label or a session replay (activity/replay-options.ts builds the recorder's rules
 * from these).
 */
/** The attribute a site owner puts on any element to keep it (and its descendants) out of reports. */
export const MASK_ATTRIBUTE = 'data-snag-mask';

/**
 * The attribute that keeps an element out of reports altogether: masked like `data-snag-mask` in
 * screenshots, and in a session replay a plain box of its size (its content never recorded).
 */
export const BLOCK_ATTRIBUTE = 'data-snag-block';

/**
 * Elements masked by themselves; `[data-snag-mask]` also masks everything inside. HTML matches `type`
 * values case-insensitively anyway; autocomplete tokens are lower case by convention (no `i` flag, which
 * some DOMs used in tests do not parse).
 */
export const MASK_SELECTOR =
  'input[type=password],[autocomplete~=cc-number],[autocomplete~=cc-csc],[autocomplete~=one-time-code],[data-snag-mask],[data-snag-block]';

/** The opaque block drawn over masked elements in screenshots (tests check these pixels). */
export const MASK_COLOUR = '#3c4150';

/** Masked itself, or inside a `[data-snag-mask]` or `[data-snag-block]` element of the same tree. */
export function isMasked(el: Element): boolean {
  return el.matches(MASK_SELECTOR) || el.closest(`[${MASK_ATTRIBUTE}],[${BLOCK_ATTRIBUTE}]`) !== null;
}

/** Every masked element under `root`, open shadow roots included (a masked host masks its shadow tree). */
export function maskedElements(root: Document | ShadowRoot = document, inherited = false): Element[] {
  const out: Element[] = [];
  for (const el of root.querySelectorAll('*')) {
    const masked = inherited || isMasked(el);
    if (masked) out.push(el);
    if (el.shadowRoot) out.push(...maskedElements(el.shadowRoot, masked));
  }
  return out;
}

/** Viewport rectangles (CSS pixels) of the masked elements, taken at capture time. */
export function maskRects(): DOMRect[] {
  const rects: DOMRect[] = [];
  for (const el of maskedElements()) {
    for (const r of el.getClientRects()) if (r.width > 0 && r.height > 0) rects.push(r);
  }
  return rects;
}

/** Paints opaque blocks over `rects` on a canvas of the viewport drawn at `scale` device pixels per CSS pixel. */
export function paintMasks(canvas: HTMLCanvasElement, rects: readonly DOMRect[], scale: number): void {
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  ctx.fillStyle = MASK_COLOUR;
  for (const r of rects) {
    // Whole device pixels, rounded outwards, so no anti-aliased edge of the text shows.
    const x = Math.floor(r.left * scale);
    const y = Math.floor(r.top * scale);
    ctx.fillRect(x, y, Math.ceil(r.right * scale) - x, Math.ceil(r.bottom * scale) - y);
  }
}
