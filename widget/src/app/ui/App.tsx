/** @jsxImportSource preact */
/** The panel: header, the current screen, the branding line; or the editor, or the recording bar. */
import { useEffect, useReducer, useRef } from 'preact/hooks';
import type { History } from '../annotate/model';
import type { Controller } from '../controller';
import { Icon } from '../icons';
import type { Store } from '../state';
import { Editor } from './Editor';
import { Form } from './Form';
import { Confirm, RecordingBar, Sending, Thanks, Welcome } from './Screens';

function useStore(store: Store) {
  const [, rerender] = useReducer((n: number, _: null) => n + 1, 0);
  useEffect(() => store.subscribe(() => rerender(null)), [store]);
  return store.get();
}

export function App({ c, onClose }: { c: Controller; onClose(): void }) {
  const s = useStore(c.store);
  const { t, store } = c;
  /** The screenshot last edited, focused when the form comes back. */
  const lastEdited = useRef<number | null>(null);

  const shot = s.editing === null ? undefined : s.draft.shots.find((x) => x.id === s.editing);
  if (shot) {
    const leave = (history?: History) => {
      if (history) c.saveShot(shot.id, history);
      lastEdited.current = shot.id;
      store.set({ editing: null });
    };
    return <Editor t={t} shot={shot} onDone={leave} onCancel={() => leave()} />;
  }
  if (s.busy === 'record' && s.recordingSince !== null) {
    return <RecordingBar t={t} since={s.recordingSince} onStop={c.stopRecording} />;
  }

  const [before, after] = t.poweredBy.split('{brand}');
  return (
    <div class="dlg" role="dialog" aria-modal="true" aria-labelledby="snag-t">
      <div class="hd">
        <h2 id="snag-t">{t.title}</h2>
        <button type="button" class="ic" aria-label={t.close} title={t.close} onClick={onClose}>
          <Icon name="close" />
        </button>
      </div>
      <div class="bd">
        {s.confirm ? (
          <Confirm
            t={t}
            onKeep={() => store.set({ confirm: false })}
            onClose={onClose}
            onDiscard={() => {
              c.reset();
              onClose();
            }}
          />
        ) : s.screen === 'welcome' ? (
          <Welcome t={t} onStart={() => store.set({ screen: 'form' })} />
        ) : s.screen === 'sending' ? (
          <Sending t={t} progress={s.progress} />
        ) : s.screen === 'done' ? (
          <Thanks t={t} number={s.number} onAgain={c.reset} onClose={onClose} />
        ) : (
          <Form c={c} s={s} focusShot={lastEdited.current} />
        )}
      </div>
      {c.config.branding && (
        <div class="ft">
          {before}
          <b>Snag</b>
          {after}
        </div>
      )}
    </div>
  );
}
