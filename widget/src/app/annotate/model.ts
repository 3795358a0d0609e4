/**
 * The annotation model, free of the DOM so it can be unit-tested: shapes in image pixels (full
 * resolution, independent of how large the editor shows the picture), a crop region, an undo history of
 * immutable documents, hit-testing and the maths between screen and image coordinates.
 */

export type Tool = 'select' | 'rect' | 'arrow' | 'pen' | 'text' | 'blur' | 'crop';

export interface Point {
  x: number;
  y: number;
}
export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

export type Shape =
  | { kind: 'rect' | 'arrow' | 'blur'; color: string; a: Point; b: Point }
  | { kind: 'pen'; color: string; points: Point[] }
  /** `at` is the top-left corner; `w` the measured width and `size` the font size, both in image pixels. */
  | { kind: 'text'; color: string; at: Point; text: string; size: number; w: number };

/** One state of the picture. Never mutated: every change makes a new Doc, so history is a list of them. */
export interface Doc {
  shapes: readonly Shape[];
  crop: Rect | null;
}

export const emptyDoc: Doc = { shapes: [], crop: null };

/** The rectangle spanned by two corners, whatever the drag direction. */
export function rectOf(a: Point, b: Point): Rect {
  return { x: Math.min(a.x, b.x), y: Math.min(a.y, b.y), w: Math.abs(a.x - b.x), h: Math.abs(a.y - b.y) };
}

export function intersect(r: Rect, s: Rect): Rect {
  const x = Math.max(r.x, s.x);
  const y = Math.max(r.y, s.y);
  return {
    x,
    y,
    w: Math.max(0, Math.min(r.x + r.w, s.x + s.w) - x),
    h: Math.max(0, Math.min(r.y + r.h, s.y + s.h) - y),
  };
}

/** The part of the image the document shows (and the flattened PNG contains). */
export function viewOf(doc: Doc, width: number, height: number): Rect {
  return doc.crop ?? { x: 0, y: 0, w: width, h: height };
}

export function boundsOf(shape: Shape): Rect {
  switch (shape.kind) {
    case 'pen': {
      const xs = shape.points.map((p) => p.x);
      const ys = shape.points.map((p) => p.y);
      const x = Math.min(...xs);
      const y = Math.min(...ys);
      return { x, y, w: Math.max(...xs) - x, h: Math.max(...ys) - y };
    }
    case 'text':
      return { x: shape.at.x, y: shape.at.y, w: shape.w, h: shape.size * 1.3 };
    default:
      return rectOf(shape.a, shape.b);
  }
}

export function distanceToSegment(p: Point, a: Point, b: Point): number {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const len2 = dx * dx + dy * dy;
  const t = len2 ? Math.max(0, Math.min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2)) : 0;
  return Math.hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy));
}

const inside = (p: Point, r: Rect, pad: number) =>
  p.x >= r.x - pad && p.x <= r.x + r.w + pad && p.y >= r.y - pad && p.y <= r.y + r.h + pad;

/**
 * The index of the topmost shape under `p`, or -1. Boxes (rectangle, blur, text) are hit anywhere inside,
 * lines (arrow, pen) within `tolerance` image pixels: a finger is wider than a 3 px stroke.
 */
export function hitTest(shapes: readonly Shape[], p: Point, tolerance: number): number {
  for (let i = shapes.length - 1; i >= 0; i--) {
    const s = shapes[i]!;
    if (s.kind === 'arrow') {
      if (distanceToSegment(p, s.a, s.b) <= tolerance) return i;
    } else if (s.kind === 'pen') {
      const pts = s.points;
      for (let j = 0; j < pts.length; j++) {
        if (distanceToSegment(p, pts[j]!, pts[j + 1] ?? pts[j]!) <= tolerance) return i;
      }
    } else if (inside(p, boundsOf(s), tolerance / 2)) return i;
  }
  return -1;
}

export function moveShape(s: Shape, dx: number, dy: number): Shape {
  const m = (p: Point) => ({ x: p.x + dx, y: p.y + dy });
  switch (s.kind) {
    case 'pen':
      return { ...s, points: s.points.map(m) };
    case 'text':
      return { ...s, at: m(s.at) };
    default:
      return { ...s, a: m(s.a), b: m(s.b) };
  }
}

/** Too small to keep: a click with a drawing tool, not a drag. */
export function isTrivial(s: Shape, min: number): boolean {
  if (s.kind === 'text') return !s.text.trim();
  if (s.kind === 'pen') return s.points.length < 2;
  return Math.hypot(s.b.x - s.a.x, s.b.y - s.a.y) < min;
}

export const addShape = (doc: Doc, s: Shape): Doc => ({ ...doc, shapes: [...doc.shapes, s] });
export const replaceShape = (doc: Doc, i: number, s: Shape): Doc => ({
  ...doc,
  shapes: doc.shapes.map((old, j) => (j === i ? s : old)),
});
export const removeShape = (doc: Doc, i: number): Doc => ({
  ...doc,
  shapes: doc.shapes.filter((_, j) => j !== i),
});

/**
 * Crops to the dragged region, within what is shown now (a second crop narrows the first). Regions under
 * `min` pixels on a side are ignored: they are slips, and an empty PNG helps nobody.
 */
export function cropTo(doc: Doc, region: Rect, width: number, height: number, min = 16): Doc {
  const r = intersect(region, viewOf(doc, width, height));
  const rounded = { x: Math.round(r.x), y: Math.round(r.y), w: Math.round(r.w), h: Math.round(r.h) };
  return rounded.w < min || rounded.h < min ? doc : { ...doc, crop: rounded };
}

/** Screen (client) coordinates to image pixels, for a canvas showing `view` inside `box` (its client rect). */
export function toImage(
  client: Point,
  box: { left: number; top: number; width: number; height: number },
  view: Rect,
): Point {
  return {
    x: view.x + ((client.x - box.left) * view.w) / box.width,
    y: view.y + ((client.y - box.top) * view.h) / box.height,
  };
}

/** The two back points of an arrow head at `b`, pointing away from `a`. */
export function arrowHead(a: Point, b: Point, size: number): [Point, Point] {
  const angle = Math.atan2(b.y - a.y, b.x - a.x);
  const at = (d: number) => ({ x: b.x - size * Math.cos(angle + d), y: b.y - size * Math.sin(angle + d) });
  return [at(Math.PI / 7), at(-Math.PI / 7)];
}

/** Stroke width for an image: about 3 CSS pixels on a screenshot taken at 1× or 2×. */
export const strokeFor = (width: number, height: number) =>
  Math.max(3, Math.round(Math.min(width, height) / 280));

/** Pixel block of the blur: coarse enough that text underneath cannot be read back. */
export const blockFor = (width: number, height: number) =>
  Math.max(10, Math.round(Math.min(width, height) / 60));

/** Font size of new text. */
export const fontFor = (width: number) => Math.max(16, Math.round(width / 64));

/** Undo history: the past, the document shown and what undo took away. */
export interface History {
  past: readonly Doc[];
  doc: Doc;
  future: readonly Doc[];
}

const historyMax = 100;

export const startHistory = (doc: Doc = emptyDoc): History => ({ past: [], doc, future: [] });

export function commit(h: History, doc: Doc): History {
  return doc === h.doc ? h : { past: [...h.past, h.doc].slice(-historyMax), doc, future: [] };
}

export function undo(h: History): History {
  const prev = h.past[h.past.length - 1];
  return prev ? { past: h.past.slice(0, -1), doc: prev, future: [h.doc, ...h.future] } : h;
}

export function redo(h: History): History {
  const [next, ...rest] = h.future;
  return next ? { past: [...h.past, h.doc], doc: next, future: rest } : h;
}
