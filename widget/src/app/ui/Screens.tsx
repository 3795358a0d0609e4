/** @jsxImportSource preact */
/** The small screens around the form: welcome, sending, thank-you, the close question and the recording bar. */
import { useEffect, useRef, useState } from 'preact/hooks';
import { reportLimits } from '#contracts/intake';
import { format, type Messages } from '../../i18n';
import { Icon } from '../icons';

/** Focuses the element on mount: each screen puts the focus where the visitor goes next. */
function useFocus<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  useEffect(() => ref.current?.focus(), []);
  return ref;
}

export function Welcome({ t, onStart }: { t: Messages; onStart(): void }) {
  const start = useFocus<HTMLButtonElement>();
  return (
    <div class="f center" style="gap:12px">
      <p class="big">{t.welcomeTitle}</p>
      <p>{t.welcomeText}</p>
      <button type="button" class="btn pri full" ref={start} onClick={onStart}>
        {t.start}
      </button>
    </div>
  );
}

export function Sending({ t, progress }: { t: Messages; progress: number }) {
  const pct = Math.round(progress * 100);
  const heading = useFocus<HTMLParagraphElement>();
  return (
    <div class="f center" style="gap:12px">
      <p class="big" tabIndex={-1} ref={heading}>
        {t.sending}
      </p>
      <div
        class="bar"
        role="progressbar"
        aria-label={t.sending}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={pct}
      >
        <i style={{ width: `${pct}%` }} />
      </div>
      <p aria-hidden="true">{format(t.percent, { n: pct })}</p>
      <p>{t.sendingHint}</p>
    </div>
  );
}

export function Thanks(props: { t: Messages; number: number | null; onAgain(): void; onClose(): void }) {
  const { t } = props;
  const close = useFocus<HTMLButtonElement>();
  return (
    <div class="f center" style="gap:10px" role="status">
      <span class="ok">
        <Icon name="check" />
      </span>
      <p class="big">{t.thanksTitle}</p>
      <p>{t.thanksText}</p>
      <p class="num">#{props.number}</p>
      <button type="button" class="btn pri full" ref={close} onClick={props.onClose}>
        {t.close}
      </button>
      <button type="button" class="btn full" onClick={props.onAgain}>
        {t.newReport}
      </button>
    </div>
  );
}

export function Confirm(props: { t: Messages; onKeep(): void; onClose(): void; onDiscard(): void }) {
  const { t } = props;
  const keep = useFocus<HTMLButtonElement>();
  return (
    <section class="f cf" aria-labelledby="snag-cq" aria-describedby="snag-cd">
      <p class="big" id="snag-cq">
        {t.confirmTitle}
      </p>
      <p id="snag-cd" style="color:var(--m);margin-bottom:8px">
        {t.confirmText}
      </p>
      <button type="button" class="btn pri" ref={keep} onClick={props.onKeep}>
        {t.keepEditing}
      </button>
      <button type="button" class="btn" onClick={props.onClose}>
        {t.close}
      </button>
      <button type="button" class="btn" style="color:var(--r)" onClick={props.onDiscard}>
        <Icon name="trash" />
        {t.discard}
      </button>
    </section>
  );
}

/** mm:ss */
export const clock = (ms: number) => {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
};

/** While recording, the panel shrinks to this bar, so it hides as little of the recorded page as it can. */
export function RecordingBar({ t, since, onStop }: { t: Messages; since: number; onStop(): void }) {
  const [now, setNow] = useState(performance.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(performance.now()), 250);
    return () => clearInterval(timer);
  }, []);
  const stop = useFocus<HTMLButtonElement>();
  return (
    <div class="dlg rec" role="dialog" aria-label={t.video}>
      <span class="dot" aria-hidden="true" />
      <span>{t.recording}</span>
      <span class="time" role="timer" aria-live="off">
        {clock(now - since)} / {clock(reportLimits.videoMaxMs)}
      </span>
      <button type="button" class="btn pri" ref={stop} onClick={onStop}>
        <Icon name="stop" />
        {t.stopRecording}
      </button>
    </div>
  );
}
