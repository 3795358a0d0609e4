/** @jsxImportSource preact */
/** The editor's toolbar, in two groups so it wraps on phones: the tools; the colours, Undo, Redo and Delete. */
import type { Messages } from '../../../i18n';
import { Icon } from '../../icons';
import { colors, tools } from './palette';
import type { EditorState } from './useEditorState';

export function Toolbar({ t, ed }: { t: Messages; ed: EditorState }) {
  return (
    <div class="tb" role="toolbar" aria-label={t.tools}>
      <div class="grp">
        {tools.map(([id, label]) => (
          <button
            type="button"
            class="ic"
            key={id}
            title={t[label]}
            aria-label={t[label]}
            aria-pressed={ed.tool === id}
            onClick={() => ed.pickTool(id)}
          >
            <Icon name={id} />
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
              aria-pressed={ed.color === c}
              onClick={() => ed.pickColor(c)}
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
          disabled={!ed.history.past.length}
          onClick={ed.undo}
        >
          <Icon name="undo" />
        </button>
        <button
          type="button"
          class="ic"
          title={t.redo}
          aria-label={t.redo}
          disabled={!ed.history.future.length}
          onClick={ed.redo}
        >
          <Icon name="redo" />
        </button>
        <button
          type="button"
          class="ic"
          title={t.deleteShape}
          aria-label={t.deleteShape}
          disabled={ed.selected < 0}
          onClick={ed.remove}
        >
          <Icon name="trash" />
        </button>
      </div>
    </div>
  );
}
