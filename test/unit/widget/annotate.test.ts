import { describe, expect, it } from 'vitest';
import {
  addShape,
  arrowHead,
  boundsOf,
  commit,
  cropTo,
  type Doc,
  distanceToSegment,
  emptyDoc,
  hitTest,
  isTrivial,
  moveShape,
  rectOf,
  redo,
  removeShape,
  replaceShape,
  type Shape,
  startHistory,
  toImage,
  undo,
  viewOf,
} from '../../../widget/src/app/annotate/model';

const red = '#E5484D';
const rect: Shape = { kind: 'rect', color: red, a: { x: 100, y: 100 }, b: { x: 50, y: 20 } };
const arrow: Shape = { kind: 'arrow', color: red, a: { x: 0, y: 0 }, b: { x: 100, y: 100 } };
const pen: Shape = {
  kind: 'pen',
  color: red,
  points: [
    { x: 300, y: 300 },
    { x: 320, y: 300 },
    { x: 320, y: 340 },
  ],
};
const text: Shape = { kind: 'text', color: red, at: { x: 500, y: 500 }, text: 'Broken', size: 20, w: 70 };

describe('annotation shapes', () => {
  it('normalises a rectangle dragged in any direction', () => {
    expect(rectOf({ x: 100, y: 100 }, { x: 50, y: 20 })).toEqual({ x: 50, y: 20, w: 50, h: 80 });
    expect(boundsOf(rect)).toEqual({ x: 50, y: 20, w: 50, h: 80 });
    expect(boundsOf(pen)).toEqual({ x: 300, y: 300, w: 20, h: 40 });
    expect(boundsOf(text)).toEqual({ x: 500, y: 500, w: 70, h: 26 });
  });

  it('measures the distance to a segment, clamped to its ends', () => {
    expect(distanceToSegment({ x: 5, y: 5 }, { x: 0, y: 0 }, { x: 10, y: 0 })).toBe(5);
    expect(distanceToSegment({ x: -3, y: 4 }, { x: 0, y: 0 }, { x: 10, y: 0 })).toBe(5);
    expect(distanceToSegment({ x: 3, y: 4 }, { x: 0, y: 0 }, { x: 0, y: 0 })).toBe(5);
  });

  it('hit-tests boxes inside, lines within the tolerance, topmost first', () => {
    const shapes = [rect, arrow, pen, text];
    expect(hitTest(shapes, { x: 75, y: 60 }, 6)).toBe(0); // inside the rectangle
    expect(hitTest(shapes, { x: 30, y: 34 }, 6)).toBe(1); // 2.8 px off the arrow's line
    expect(hitTest(shapes, { x: 30, y: 50 }, 6)).toBe(-1); // 14 px off
    expect(hitTest(shapes, { x: 322, y: 320 }, 6)).toBe(2); // on the pen's second segment
    expect(hitTest(shapes, { x: 560, y: 510 }, 6)).toBe(3);
    // Where the arrow crosses the rectangle, the later shape (the arrow) wins.
    expect(hitTest(shapes, { x: 60, y: 60 }, 6)).toBe(1);
  });

  it('moves every kind of shape by the drag distance', () => {
    expect(moveShape(rect, 10, -5)).toMatchObject({ a: { x: 110, y: 95 }, b: { x: 60, y: 15 } });
    expect(moveShape(pen, 1, 1)).toMatchObject({
      points: [
        { x: 301, y: 301 },
        { x: 321, y: 301 },
        { x: 321, y: 341 },
      ],
    });
    expect(moveShape(text, -500, 0)).toMatchObject({ at: { x: 0, y: 500 } });
    expect(rect.a).toEqual({ x: 100, y: 100 }); // never mutated: history keeps the old document
  });

  it('drops a click with a drawing tool and empty text', () => {
    expect(isTrivial({ ...rect, b: { x: 101, y: 101 } }, 4)).toBe(true);
    expect(isTrivial(rect, 4)).toBe(false);
    expect(isTrivial({ ...pen, points: [{ x: 1, y: 1 }] }, 4)).toBe(true);
    expect(isTrivial({ ...text, text: '  ' }, 4)).toBe(true);
  });

  it('points the arrow head back along the line', () => {
    const [l, r] = arrowHead({ x: 0, y: 0 }, { x: 100, y: 0 }, 10);
    expect(l.x).toBeCloseTo(100 - 10 * Math.cos(Math.PI / 7));
    expect(r.x).toBeCloseTo(l.x);
    expect(l.y).toBeCloseTo(-r.y);
  });
});

describe('documents and history', () => {
  it('adds, replaces and removes shapes without touching the old document', () => {
    const one = addShape(emptyDoc, rect);
    const two = addShape(one, arrow);
    expect(replaceShape(two, 0, text).shapes).toEqual([text, arrow]);
    expect(removeShape(two, 0).shapes).toEqual([arrow]);
    expect(one.shapes).toEqual([rect]);
  });

  it('undoes and redoes, and a new change clears what could be redone', () => {
    let h = startHistory();
    h = commit(h, addShape(h.doc, rect));
    h = commit(h, addShape(h.doc, arrow));
    expect(h.doc.shapes).toHaveLength(2);
    h = undo(h);
    expect(h.doc.shapes).toEqual([rect]);
    h = undo(h);
    expect(h.doc).toBe(emptyDoc);
    expect(undo(h)).toBe(h); // nothing left to undo
    h = redo(h);
    expect(h.doc.shapes).toEqual([rect]);
    h = commit(h, addShape(h.doc, pen));
    expect(h.future).toHaveLength(0);
    expect(redo(h)).toBe(h);
    expect(undo(h).doc.shapes).toEqual([rect]);
  });

  it('does not record a change that changes nothing', () => {
    const h = startHistory();
    expect(commit(h, h.doc)).toBe(h);
  });

  it('keeps at most 100 steps', () => {
    let h = startHistory();
    for (let i = 0; i < 150; i++) h = commit(h, addShape(h.doc, rect));
    expect(h.past).toHaveLength(100);
  });
});

describe('crop maths', () => {
  const W = 2560;
  const H = 1600;

  it('shows the whole image until cropped', () => {
    expect(viewOf(emptyDoc, W, H)).toEqual({ x: 0, y: 0, w: W, h: H });
  });

  it('crops to the dragged region, clipped to the image and rounded to whole pixels', () => {
    const doc = cropTo(emptyDoc, { x: -50.4, y: 100.6, w: 400, h: 300 }, W, H);
    expect(doc.crop).toEqual({ x: 0, y: 101, w: 350, h: 300 });
  });

  it('narrows an earlier crop instead of escaping it', () => {
    const first = cropTo(emptyDoc, { x: 100, y: 100, w: 1000, h: 800 }, W, H);
    const second = cropTo(first, { x: 50, y: 500, w: 2000, h: 100 }, W, H);
    expect(second.crop).toEqual({ x: 100, y: 500, w: 1000, h: 100 });
  });

  it('ignores a slip smaller than the minimum', () => {
    const doc: Doc = { shapes: [rect], crop: null };
    expect(cropTo(doc, { x: 10, y: 10, w: 8, h: 300 }, W, H)).toBe(doc);
    expect(cropTo(doc, { x: W - 5, y: 10, w: 300, h: 300 }, W, H)).toBe(doc); // mostly outside the image
  });

  it('maps screen points to image pixels for a scaled, cropped view', () => {
    // A 1000×500 region starting at (200, 100), shown 500×250 CSS pixels wide at (40, 60) on screen.
    const box = { left: 40, top: 60, width: 500, height: 250 };
    const view = { x: 200, y: 100, w: 1000, h: 500 };
    expect(toImage({ x: 40, y: 60 }, box, view)).toEqual({ x: 200, y: 100 });
    expect(toImage({ x: 290, y: 185 }, box, view)).toEqual({ x: 700, y: 350 });
    expect(toImage({ x: 540, y: 310 }, box, view)).toEqual({ x: 1200, y: 600 });
  });
});
