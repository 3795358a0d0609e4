/**
 * The editor's state (the picture's undo history, the tool, the colour, the selected shape) and the
 * commands that change it, shared by the toolbar, the pointer, the text tool and the keyboard.
 */
import { useState } from 'preact/hooks';
import {
  addShape,
  commit,
  type Doc,
  type History,
  moveShape,
  redo,
  removeShape,
  replaceShape,
  type Shape,
  type Tool,
  undo,
} from '../../annotate/model';
import { colors } from './palette';

export type EditorState = ReturnType<typeof useEditorState>;

export function useEditorState(initial: History) {
  const [history, setHistory] = useState(initial);
  const [tool, setTool] = useState<Tool>('rect');
  const [color, setColor] = useState(colors[0]![0]);
  const [selected, select] = useState(-1);
  const doc = history.doc;
  const change = (next: Doc) => setHistory((h) => commit(h, next));
  return {
    history,
    doc,
    tool,
    color,
    /** Index of the selected shape, -1 for none. */
    selected,
    select,
    change,
    /** A new shape goes on top and is selected. */
    add(shape: Shape) {
      change(addShape(doc, shape));
      select(doc.shapes.length);
    },
    remove() {
      if (selected < 0) return;
      change(removeShape(doc, selected));
      select(-1);
    },
    // Undo and redo drop the selection: the shape may be gone.
    undo() {
      setHistory(undo);
      select(-1);
    },
    redo() {
      setHistory(redo);
      select(-1);
    },
    pickTool(id: Tool) {
      setTool(id);
      if (id !== 'select') select(-1);
    },
    /** The colour of new shapes, and of the selected one (blur has none). */
    pickColor(c: string) {
      setColor(c);
      const s = doc.shapes[selected];
      if (s && s.kind !== 'blur') change(replaceShape(doc, selected, { ...s, color: c }));
    },
    /** Moves the selected shape by image pixels. */
    move(dx: number, dy: number) {
      change(replaceShape(doc, selected, moveShape(doc.shapes[selected]!, dx, dy)));
    },
  };
}
