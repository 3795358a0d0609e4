/** @jsxImportSource preact */
/**
 * The annotation editor: full screen over the page (it must work at 320 px), the screenshot on a canvas
 * scaled to fit, tools above, Cancel/Done below. Shapes live in image pixels (annotate/model.ts); the
 * canvas always holds the visible region at full resolution, so what is drawn here is the uploaded PNG.
 */
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { format, type Messages } from '../../i18n';
import {
  addShape,
  commit,
  cropTo,
  fontFor,
  type History,
  hitTest,
  isTrivial,
  moveShape,
  type Point,
  type Rect,
  rectOf,
  redo,
  removeShape,
  replaceShape,
  type Shape,
  type Tool,
  toImage,
  undo,
  viewOf,
} from '../annotate/model';
import { measureText, render } from '../annotate/render';
import { Icon, type icons } from '../icons';
import type { Shot } from '../state';

const tools: [Tool, keyof typeof icons, keyof Messages][] = [
  ['select', 'select', 'toolSelect'],
  ['rect', 'rect', 'toolRect'],
  ['arrow', 'arrow', 'toolArrow'],
  ['pen', 'pen', 'toolPen'],
  ['text', 'text', 'toolText'],
  ['blur', 'blur', 'toolBlur'],
  ['crop', 'crop', 'toolCrop'],
];

const colors: [string, keyof Messages][] = [
  ['#E5484D', 'colorRed'],
  ['#FFC53D', 'colorYellow'],
  ['#30A46C', 'colorGreen'],
  ['#0090FF', 'colorBlue'],
  ['#14141F', 'colorBlack'],
];

/** What a pointer drag is doing. */
type Drag =
  | { kind: 'draw'; shape: Shape }
  | { kind: 'move'; index: number; from: Point; shape: Shape }
  | { kind: 'crop'; from: Point; rect: Rect };

interface TextEntry {
  at: Point;
  /** Position within the stage, in CSS pixels. */
  left: number;
  top: number;
  fontPx: number;
}

export function Editor(props: { t: Messages; shot: Shot; onDone(history: History): void; onCancel(): void }) {
  const { t, shot } = props;
  const base = shot.base;
  const [history, setHistory] = useState(shot.history);
  const [tool, setTool] = useState<Tool>('rect');
  const [color, setColor] = useState(colors[0]![0]);
  const [selected, setSelected] = useState(-1);
  const [stage, setStage] = useState({ w: 0, h: 0 });
  const [text, setText] = useState<TextEntry | null>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const stageRef = useRef<HTMLDivElement>(null);
  const drag = useRef<Drag | null>(null);
  const textField = useRef<HTMLInputElement>(null);
  /** The open text entry, read by commitText: Enter and the blur that follows must not add it twice. */
  const textOpen = useRef<TextEntry | null>(null);
  const doc = history.doc;
  const view = viewOf(doc, base.width, base.height);

  // Show the picture at most at its natural CSS size (device pixels / dpr), smaller when it must fit.
  const dpr = window.devicePixelRatio || 1;
  const fit = Math.min(stage.w / view.w, stage.h / view.h, 1 / dpr) || 0;

  const paint = () => {
    const d = drag.current;
    if (!canvas.current) return;
    render(canvas.current, base, doc, {
      selected: d?.kind === 'move' ? d.index : selected,
      draft: d?.kind === 'draw' ? d.shape : null,
      cropDraft: d?.kind === 'crop' ? d.rect : null,
    });
  };
  useLayoutEffect(paint);

  useLayoutEffect(() => {
    const el = stageRef.current!;
    const measure = () => setStage({ w: el.clientWidth - 24, h: el.clientHeight - 24 });
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  useEffect(() => canvas.current?.focus(), []);
  useEffect(() => {
    textOpen.current = text;
    textField.current?.focus();
  }, [text]);

  const change = (next: typeof doc) => setHistory((h) => commit(h, next));
  const imagePoint = (e: PointerEvent) =>
    toImage({ x: e.clientX, y: e.clientY }, canvas.current!.getBoundingClientRect(), view);
  /** 12 CSS pixels in image pixels: the hit tolerance around thin lines. */
  const tolerance = () => (12 * view.w) / (canvas.current?.getBoundingClientRect().width || view.w);

  function down(e: PointerEvent) {
    if (e.button > 0) return;
    const p = imagePoint(e);
    canvas.current!.setPointerCapture(e.pointerId);
    if (tool === 'select') {
      const index = hitTest(doc.shapes, p, tolerance());
      setSelected(index);
      if (index >= 0) drag.current = { kind: 'move', index, from: p, shape: doc.shapes[index]! };
    } else if (tool === 'crop') drag.current = { kind: 'crop', from: p, rect: rectOf(p, p) };
    else if (tool === 'pen') drag.current = { kind: 'draw', shape: { kind: 'pen', color, points: [p] } };
    else if (tool !== 'text') drag.current = { kind: 'draw', shape: { kind: tool, color, a: p, b: p } };
  }

  function move(e: PointerEvent) {
    const d = drag.current;
    if (!d) return;
    const p = imagePoint(e);
    if (d.kind === 'move') {
      const moved = moveShape(d.shape, p.x - d.from.x, p.y - d.from.y);
      render(canvas.current!, base, replaceShape(doc, d.index, moved), { selected: d.index });
      return;
    }
    if (d.kind === 'crop') d.rect = rectOf(d.from, p);
    else if (d.shape.kind === 'pen') d.shape.points.push(p);
    else if (d.shape.kind !== 'text') d.shape = { ...d.shape, b: p };
    paint();
  }

  function up(e: PointerEvent) {
    const d = drag.current;
    drag.current = null;
    const p = imagePoint(e);
    if (tool === 'text' && e.type === 'pointerup') return openText(p, e);
    if (!d) return paint();
    if (d.kind === 'move') {
      const dx = p.x - d.from.x;
      const dy = p.y - d.from.y;
      if (dx || dy) change(replaceShape(doc, d.index, moveShape(d.shape, dx, dy)));
      else paint();
    } else if (d.kind === 'crop') {
      change(cropTo(doc, d.rect, base.width, base.height));
      setSelected(-1);
    } else if (!isTrivial(d.shape, tolerance() / 2)) {
      change(addShape(doc, d.shape));
      setSelected(doc.shapes.length);
    } else paint();
  }

  function openText(p: Point, e: PointerEvent) {
    const box = canvas.current!.getBoundingClientRect();
    const stageBox = stageRef.current!.getBoundingClientRect();
    const size = fontFor(base.width);
    setText({
      at: p,
      left: e.clientX - stageBox.left,
      top: e.clientY - stageBox.top,
      fontPx: (size * box.width) / view.w,
    });
  }

  function commitText(value: string) {
    const entry = textOpen.current;
    if (!entry) return;
    textOpen.current = null;
    setText(null);
    const size = fontFor(base.width);
    const shape: Shape = {
      kind: 'text',
      color,
      at: entry.at,
      text: value.trim(),
      size,
      w: measureText(value.trim(), size),
    };
    if (!isTrivial(shape, 0)) {
      change(addShape(doc, shape));
      setSelected(doc.shapes.length);
    }
    canvas.current?.focus();
  }

  const remove = () => {
    if (selected < 0) return;
    change(removeShape(doc, selected));
    setSelected(-1);
  };
  const step = (fn: typeof undo) => {
    setHistory(fn);
    setSelected(-1);
  };

  function key(e: KeyboardEvent) {
    if ((e.target as HTMLElement).tagName === 'INPUT') return; // The text field handles its own keys.
    const mod = e.ctrlKey || e.metaKey;
    const k = e.key.toLowerCase();
    let handled = true;
    if (e.key === 'Escape') props.onDone(history);
    else if ((e.key === 'Delete' || e.key === 'Backspace') && selected >= 0) remove();
    else if (mod && k === 'z') step(e.shiftKey ? redo : undo);
    else if (mod && k === 'y') step(redo);
    else if (e.key.startsWith('Arrow') && selected >= 0 && e.target === canvas.current) {
      const px = (e.shiftKey ? 10 : 1) * dpr;
      const dx = e.key === 'ArrowLeft' ? -px : e.key === 'ArrowRight' ? px : 0;
      const dy = e.key === 'ArrowUp' ? -px : e.key === 'ArrowDown' ? px : 0;
      change(replaceShape(doc, selected, moveShape(doc.shapes[selected]!, dx, dy)));
    } else handled = false;
    if (handled) {
      e.preventDefault();
      e.stopPropagation();
    }
  }

  function pickColor(c: string) {
    setColor(c);
    const s = doc.shapes[selected];
    if (s && s.kind !== 'blur') change(replaceShape(doc, selected, { ...s, color: c }));
  }

  return (
    <div class="ed" role="dialog" aria-modal="true" aria-label={t.editorTitle} onKeyDown={key}>
      <div class="tb" role="toolbar" aria-label={t.tools}>
        <div class="grp">
          {tools.map(([id, icon, label]) => (
            <button
              type="button"
              class="ic"
              key={id}
              title={t[label]}
              aria-label={t[label]}
              aria-pressed={tool === id}
              onClick={() => {
                setTool(id);
                if (id !== 'select') setSelected(-1);
              }}
            >
              <Icon name={icon} />
            </button>
          ))}
        </div>
        <div class="grp">
          <fieldset class="sw-set">
            <legend class="sr">{t.colors}</legend>
            {colors.map(([c, label]) => (
              <button
                type="button"
                class="ic sw"
                key={c}
                title={t[label]}
                aria-label={t[label]}
                aria-pressed={color === c}
                onClick={() => pickColor(c)}
              >
                <i style={{ background: c }} />
              </button>
            ))}
          </fieldset>
          <span class="sep" />
          <button
            type="button"
            class="ic"
            title={t.undo}
            aria-label={t.undo}
            disabled={!history.past.length}
            onClick={() => step(undo)}
          >
            <Icon name="undo" />
          </button>
          <button
            type="button"
            class="ic"
            title={t.redo}
            aria-label={t.redo}
            disabled={!history.future.length}
            onClick={() => step(redo)}
          >
            <Icon name="redo" />
          </button>
          <button
            type="button"
            class="ic"
            title={t.deleteShape}
            aria-label={t.deleteShape}
            disabled={selected < 0}
            onClick={remove}
          >
            <Icon name="trash" />
          </button>
        </div>
      </div>
      <div class="stage" ref={stageRef}>
        <canvas
          ref={canvas}
          class={tool === 'select' ? 'sel' : ''}
          tabIndex={0}
          role="img"
          aria-label={t.editorTitle}
          aria-describedby="snag-eh"
          style={{ width: `${view.w * fit}px`, height: `${view.h * fit}px` }}
          onPointerDown={down}
          onPointerMove={move}
          onPointerUp={up}
          onPointerCancel={up}
        />
        <span class="sr" id="snag-eh">
          {t.editorHelp}
        </span>
        <span class="sr" id="snag-th">
          {t.textHint}
        </span>
        {text && (
          <input
            class="ti"
            aria-label={t.textInput}
            style={{
              left: `${text.left}px`,
              top: `${text.top}px`,
              fontSize: `${Math.max(14, text.fontPx)}px`,
              color,
            }}
            aria-describedby="snag-th"
            ref={textField}
            onKeyDown={(e) => {
              // Its own keys stay here: Escape must not also leave the editor. Escape finishes the text
              // like Enter (typed text is never thrown away); the next Escape, on the canvas, leaves.
              e.stopPropagation();
              if (e.key === 'Enter' || e.key === 'Escape') {
                e.preventDefault();
                commitText(e.currentTarget.value);
              }
            }}
            onBlur={(e) => commitText(e.currentTarget.value)}
          />
        )}
      </div>
      <div class="eb">
        {shot.placeholders > 0 && (
          <p class="en" role="status">
            {format(t.placeholdersNote, { n: shot.placeholders })}
          </p>
        )}
        <button type="button" class="btn" onClick={props.onCancel}>
          {t.cancel}
        </button>
        <button type="button" class="btn pri" onClick={() => props.onDone(history)}>
          <Icon name="check" />
          {t.done}
        </button>
      </div>
    </div>
  );
}
