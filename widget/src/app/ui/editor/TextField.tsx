/** @jsxImportSource preact */
/**
 * The text tool: a click opens a field where it happened, at the size the text will have on the picture;
 * Enter, Escape or leaving the field adds what was typed as a shape (typed text is never thrown away).
 */
import type { RefObject } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Messages } from '../../../i18n';
import { fontFor, isTrivial, type Point, type Rect, type Shape } from '../../annotate/model';
import { measureText } from '../../annotate/render';
import type { EditorState } from './useEditorState';

type TextEntryState = ReturnType<typeof useTextEntry>;

interface TextEntry {
  at: Point;
  /** Position within the stage, in CSS pixels. */
  left: number;
  top: number;
  fontPx: number;
}

/** The open text entry, and how to open it and finish it (adding the text unless it is empty). */
export function useTextEntry(
  canvas: RefObject<HTMLCanvasElement | null>,
  stage: RefObject<HTMLDivElement | null>,
  imageWidth: number,
  view: Rect,
  ed: EditorState,
) {
  const [entry, setEntry] = useState<TextEntry | null>(null);
  const field = useRef<HTMLInputElement>(null);
  /**
   * The open text entry, read by finish: Enter and the blur that follows must not add it twice. It is
   * set while rendering, not in an effect: the field exists (and can take a key) as soon as the render
   * is committed, before effects run, and an Enter in that gap must still finish the entry.
   */
  const open = useRef<TextEntry | null>(null);
  open.current = entry;
  // The field takes the focus each time an entry opens, unless the entry was finished before this effect
  // ran (an Enter in the gap above): focusing the field on its way out would drop the focus on the page
  // body once it is removed, where Escape and the shortcuts no longer reach the editor.
  useEffect(() => {
    if (entry && open.current === entry) field.current?.focus();
  }, [entry]);

  const start = (at: Point, e: PointerEvent) => {
    const box = canvas.current!.getBoundingClientRect();
    const stageBox = stage.current!.getBoundingClientRect();
    setEntry({
      at,
      left: e.clientX - stageBox.left,
      top: e.clientY - stageBox.top,
      fontPx: (fontFor(imageWidth) * box.width) / view.w,
    });
  };

  const finish = (value: string) => {
    const current = open.current;
    if (!current) return;
    open.current = null;
    setEntry(null);
    const size = fontFor(imageWidth);
    const text = value.trim();
    const shape: Shape = {
      kind: 'text',
      color: ed.color,
      at: current.at,
      text,
      size,
      w: measureText(text, size),
    };
    if (!isTrivial(shape, 0)) ed.add(shape);
    canvas.current?.focus();
  };

  return { entry, field, start, finish };
}

export function TextField({ t, text, color }: { t: Messages; text: TextEntryState; color: string }) {
  const { entry } = text;
  if (!entry) return null;
  return (
    <input
      class="ti"
      aria-label={t.textInput}
      style={{
        left: `${entry.left}px`,
        top: `${entry.top}px`,
        fontSize: `${Math.max(14, entry.fontPx)}px`,
        color,
      }}
      aria-describedby="snag-th"
      ref={text.field}
      onKeyDown={(e) => {
        // Its own keys stay here: Escape must not also leave the editor. Escape finishes the text
        // like Enter (typed text is never thrown away); the next Escape, on the canvas, leaves.
        e.stopPropagation();
        if (e.key === 'Enter' || e.key === 'Escape') {
          e.preventDefault();
          text.finish(e.currentTarget.value);
        }
      }}
      onBlur={(e) => text.finish(e.currentTarget.value)}
    />
  );
}
