/** @jsxImportSource preact */
/**
 * The annotation editor: full screen over the page (it must work at 320 px), the screenshot on a canvas
 * scaled to fit, tools above, Cancel/Done below. Shapes live in image pixels (annotate/model.ts); the
 * canvas always holds the visible region at full resolution, so what is drawn here is the uploaded PNG.
 * Its parts (editor/): the state and its commands, the toolbar, drawing with the pointer, the text tool.
 */
import { useEffect, useRef } from 'preact/hooks';
import { format, type Messages } from '../../i18n';
import { type History, viewOf } from '../annotate/model';
import { Icon } from '../icons';
import type { Shot } from '../state';
import { TextField, useTextEntry } from './editor/TextField';
import { Toolbar } from './editor/Toolbar';
import { useDrawing } from './editor/useDrawing';
import { useEditorState } from './editor/useEditorState';
import { useStageSize } from './editor/useStageSize';

export function Editor(props: { t: Messages; shot: Shot; onDone(history: History): void; onCancel(): void }) {
  const { t, shot } = props;
  const base = shot.base;
  const ed = useEditorState(shot.history);
  const { history, doc, selected } = ed;
  const view = viewOf(doc, base.width, base.height);
  const canvas = useRef<HTMLCanvasElement>(null);
  const [stageRef, stage] = useStageSize();
  const text = useTextEntry(canvas, stageRef, base.width, view, ed);
  const pointer = useDrawing(canvas, base, view, ed, text.start);
  useEffect(() => canvas.current?.focus(), []);

  // Show the picture at most at its natural CSS size (device pixels / dpr), smaller when it must fit.
  const dpr = window.devicePixelRatio || 1;
  const fit = Math.min(stage.w / view.w, stage.h / view.h, 1 / dpr) || 0;

  /** The shortcuts the help text names; an arrow key moves the selected shape a CSS pixel (ten with Shift). */
  function key(e: KeyboardEvent) {
    if ((e.target as HTMLElement).tagName === 'INPUT') return; // The text field handles its own keys.
    const mod = e.ctrlKey || e.metaKey;
    const k = e.key.toLowerCase();
    let handled = true;
    if (e.key === 'Escape') props.onDone(history);
    else if ((e.key === 'Delete' || e.key === 'Backspace') && selected >= 0) ed.remove();
    else if (mod && k === 'z') (e.shiftKey ? ed.redo : ed.undo)();
    else if (mod && k === 'y') ed.redo();
    else if (e.key.startsWith('Arrow') && selected >= 0 && e.target === canvas.current) {
      const px = (e.shiftKey ? 10 : 1) * dpr;
      const dx = e.key === 'ArrowLeft' ? -px : e.key === 'ArrowRight' ? px : 0;
      const dy = e.key === 'ArrowUp' ? -px : e.key === 'ArrowDown' ? px : 0;
      ed.move(dx, dy);
    } else handled = false;
    if (handled) {
      e.preventDefault();
      e.stopPropagation();
    }
  }

  return (
    <div class="ed" role="dialog" aria-modal="true" aria-label={t.editorTitle} onKeyDown={key}>
      <Toolbar t={t} ed={ed} />
      <div class="stage" ref={stageRef}>
        <canvas
          ref={canvas}
          class={ed.tool === 'select' ? 'sel' : ''}
          tabIndex={0}
          role="img"
          aria-label={t.editorTitle}
          aria-describedby="snag-eh"
          style={{ width: `${view.w * fit}px`, height: `${view.h * fit}px` }}
          {...pointer}
        />
        <span class="sr" id="snag-eh">
          {t.editorHelp}
        </span>
        <span class="sr" id="snag-th">
          {t.textHint}
        </span>
        <TextField t={t} text={text} color={ed.color} />
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
