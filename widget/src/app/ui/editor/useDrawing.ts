/**
 * Drawing with the pointer: a drag draws a shape, moves the selected one or spans the crop, painted live on
 * the canvas and committed to the history on release; a click with the text tool opens the text field.
 */
import type { RefObject } from 'preact';
import { useLayoutEffect, useRef } from 'preact/hooks';
import {
  cropTo,
  hitTest,
  isTrivial,
  moveShape,
  type Point,
  type Rect,
  rectOf,
  replaceShape,
  type Shape,
  toImage,
} from '../../annotate/model';
import { render } from '../../annotate/render';
import type { EditorState } from './useEditorState';

/** What a pointer drag is doing. */
type Drag =
  | { kind: 'draw'; shape: Shape }
  | { kind: 'move'; index: number; from: Point; shape: Shape }
  | { kind: 'crop'; from: Point; rect: Rect };

/** Paints the canvas after every render and returns its pointer handlers. */
export function useDrawing(
  canvas: RefObject<HTMLCanvasElement | null>,
  base: HTMLCanvasElement,
  /** The part of the image shown (viewOf). */
  view: Rect,
  ed: EditorState,
  openText: (at: Point, e: PointerEvent) => void,
) {
  const { doc } = ed;
  const drag = useRef<Drag | null>(null);

  const paint = () => {
    const g = drag.current;
    if (!canvas.current) return;
    render(canvas.current, base, doc, {
      selected: g?.kind === 'move' ? g.index : ed.selected,
      draft: g?.kind === 'draw' ? g.shape : null,
      cropDraft: g?.kind === 'crop' ? g.rect : null,
    });
  };
  useLayoutEffect(paint);

  const imagePoint = (e: PointerEvent) =>
    toImage({ x: e.clientX, y: e.clientY }, canvas.current!.getBoundingClientRect(), view);
  /** 12 CSS pixels in image pixels: the hit tolerance around thin lines. */
  const tolerance = () => (12 * view.w) / (canvas.current?.getBoundingClientRect().width || view.w);

  function down(e: PointerEvent) {
    if (e.button > 0) return;
    const p = imagePoint(e);
    const { tool, color } = ed;
    canvas.current!.setPointerCapture(e.pointerId);
    if (tool === 'select') {
      const index = hitTest(doc.shapes, p, tolerance());
      ed.select(index);
      if (index >= 0) drag.current = { kind: 'move', index, from: p, shape: doc.shapes[index]! };
    } else if (tool === 'crop') drag.current = { kind: 'crop', from: p, rect: rectOf(p, p) };
    else if (tool === 'pen') drag.current = { kind: 'draw', shape: { kind: 'pen', color, points: [p] } };
    else if (tool !== 'text') drag.current = { kind: 'draw', shape: { kind: tool, color, a: p, b: p } };
  }

  function move(e: PointerEvent) {
    const g = drag.current;
    if (!g) return;
    const p = imagePoint(e);
    if (g.kind === 'move') {
      const moved = moveShape(g.shape, p.x - g.from.x, p.y - g.from.y);
      render(canvas.current!, base, replaceShape(doc, g.index, moved), { selected: g.index });
      return;
    }
    if (g.kind === 'crop') g.rect = rectOf(g.from, p);
    else if (g.shape.kind === 'pen') g.shape.points.push(p);
    else if (g.shape.kind !== 'text') g.shape = { ...g.shape, b: p };
    paint();
  }

  function up(e: PointerEvent) {
    const g = drag.current;
    drag.current = null;
    const p = imagePoint(e);
    if (ed.tool === 'text' && e.type === 'pointerup') return openText(p, e);
    if (!g) return paint();
    if (g.kind === 'move') {
      const dx = p.x - g.from.x;
      const dy = p.y - g.from.y;
      if (dx || dy) ed.change(replaceShape(doc, g.index, moveShape(g.shape, dx, dy)));
      else paint();
    } else if (g.kind === 'crop') {
      ed.change(cropTo(doc, g.rect, base.width, base.height));
      ed.select(-1);
    } else if (!isTrivial(g.shape, tolerance() / 2)) ed.add(g.shape);
    else paint();
  }

  return { onPointerDown: down, onPointerMove: move, onPointerUp: up, onPointerCancel: up };
}
