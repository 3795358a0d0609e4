/** @jsxImportSource preact */
/**
 * The report form: description, email, screenshots, attachments and screen recording, as the project's
 * settings allow, and where a session recording exists the choice to attach its last minute (on by default). Field errors show after the first Send, next to their field, and the first invalid
 * field takes the focus.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { reportLimits } from '#contracts/intake';
import { format } from '../../i18n';
import type { Controller } from '../controller';
import { errorKey } from '../errors';
import { Icon } from '../icons';
import type { Note, State } from '../state';

/** A file size in the visitor's language ("1,5 MB", "12 ko"); plain units where Intl lacks them. */
function size(bytes: number, lang: string): string {
  const mb = bytes >= 1024 * 1024;
  const value = mb ? bytes / 1048576 : Math.max(1, bytes / 1024);
  try {
    return new Intl.NumberFormat(lang, {
      style: 'unit',
      unit: mb ? 'megabyte' : 'kilobyte',
      maximumFractionDigits: mb ? 1 : 0,
    }).format(value);
  } catch {
    return `${value.toFixed(mb ? 1 : 0)} ${mb ? 'MB' : 'KB'}`;
  }
}

export function Form({ c, s, focusShot }: { c: Controller; s: State; focusShot: number | null }) {
  const { t, config } = c;
  const d = s.draft;
  const lang = config.language;
  const errors = s.tried ? c.validation() : {};
  const description = useRef<HTMLTextAreaElement>(null);
  const email = useRef<HTMLInputElement>(null);
  const root = useRef<HTMLFormElement>(null);
  const files = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const busy = s.busy !== null;
  const shotsFull = d.shots.length >= reportLimits.screenshotsMax;
  const n = (v: number) => v.toLocaleString(lang);
  const notes = (at: Note['at']) =>
    s.notes
      .filter((note) => note.at === at)
      .map((note) => (
        <p class="note" role="status" key={note.key + String(note.vars?.name ?? '')}>
          {format(t[note.key], note.vars ?? {})}
        </p>
      ));

  useEffect(() => {
    // Back from the editor: focus that screenshot. Otherwise start typing, except on touch screens,
    // where the keyboard would cover half of the form before the visitor has seen it.
    const shot = focusShot !== null && root.current?.querySelector<HTMLElement>(`[data-shot="${focusShot}"]`);
    if (shot) shot.focus();
    else if (!matchMedia('(pointer: coarse)').matches) description.current?.focus();
  }, [focusShot]);

  async function submit(e: Event) {
    e.preventDefault();
    await c.send();
    const v = c.validation();
    if (v.description) description.current?.focus();
    else if (v.email) email.current?.focus();
  }

  const drop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    if (e.dataTransfer?.files.length) c.addFiles(e.dataTransfer.files);
  };

  return (
    <form class="f" style="gap:14px" noValidate onSubmit={submit} ref={root}>
      <div class="f">
        <label for="snag-d">{t.description}</label>
        <textarea
          id="snag-d"
          class="in"
          ref={description}
          value={d.description}
          placeholder={t.descriptionPlaceholder}
          aria-required="true"
          aria-invalid={!!errors.description}
          aria-describedby="snag-de snag-dc"
          onInput={(e) => c.store.setDraft({ description: e.currentTarget.value })}
        />
        <div class="meta">
          <span class="err" id="snag-de">
            {errors.description && format(t[errors.description], { max: n(reportLimits.descriptionMax) })}
          </span>
          <span
            class={d.description.trim().length > reportLimits.descriptionMax ? 'cnt over' : 'cnt'}
            aria-hidden="true"
          >
            {n(d.description.length)} / {n(reportLimits.descriptionMax)}
          </span>
          <span class="sr" id="snag-dc">
            {format(t.charCount, { n: n(d.description.length), max: n(reportLimits.descriptionMax) })}
          </span>
        </div>
      </div>

      {/* A strict project (docs/privacy.md) asks for no email. */}
      {!config.strictPrivacy && (
        <div class="f">
          <label for="snag-e">{t.email}</label>
          <input
            id="snag-e"
            class="in"
            ref={email}
            type="email"
            autoComplete="email"
            inputMode="email"
            value={d.email}
            placeholder="name@example.com"
            aria-invalid={!!errors.email}
            aria-describedby="snag-ee"
            onInput={(e) => c.store.setDraft({ email: e.currentTarget.value })}
          />
          <span class={errors.email ? 'err hint' : 'hint'} id="snag-ee">
            {errors.email ? t[errors.email] : t.emailHint}
          </span>
        </div>
      )}

      {c.screenshots && (
        <section aria-labelledby="snag-sh">
          <h3 id="snag-sh">
            {t.screenshots}
            <span>
              {d.shots.length} / {reportLimits.screenshotsMax}
            </span>
          </h3>
          {d.shots.length > 0 && (
            <div class="shots">
              {d.shots.map((shot, i) => (
                <div class="th" key={shot.id}>
                  <button
                    type="button"
                    data-shot={shot.id}
                    aria-label={format(t.annotateN, { n: i + 1 })}
                    title={format(t.annotateN, { n: i + 1 })}
                    onClick={() => c.store.set({ editing: shot.id })}
                  >
                    <img src={shot.thumb} alt="" />
                  </button>
                  <button
                    type="button"
                    class="ic rm"
                    aria-label={format(t.removeN, { n: i + 1 })}
                    title={format(t.removeN, { n: i + 1 })}
                    onClick={() => c.removeShot(shot.id)}
                  >
                    <Icon name="close" />
                  </button>
                </div>
              ))}
            </div>
          )}
          <div class="acts">
            <button
              type="button"
              class="btn"
              disabled={busy || shotsFull}
              onClick={() => c.takeScreenshot(false)}
            >
              {s.busy === 'capture' ? <span class="sp" /> : <Icon name="camera" />}
              {s.busy === 'capture' ? t.capturing : t.takeScreenshot}
            </button>
            {c.canScreen && (
              <button
                type="button"
                class="btn"
                disabled={busy || shotsFull}
                aria-describedby="snag-sc"
                onClick={() => c.takeScreenshot(true)}
              >
                <Icon name="screen" />
                {t.captureScreen}
              </button>
            )}
          </div>
          {/* The browser's sharing prompt surprises a visitor who does not know it is coming. */}
          {c.canScreen && (
            <p class="hint" id="snag-sc">
              {t.captureScreenHint}
            </p>
          )}
          {notes('shots')}
        </section>
      )}

      {config.upload && (
        <section
          aria-labelledby="snag-at"
          onDragOver={(e) => {
            e.preventDefault();
            setOver(true);
          }}
          onDragLeave={() => setOver(false)}
          onDrop={drop}
        >
          <h3 id="snag-at">
            {t.attachments}
            <span>
              {d.files.length} / {reportLimits.filesMax}
            </span>
          </h3>
          {d.files.length > 0 && (
            <ul>
              {d.files.map((f) => (
                <li key={f.name + f.size + f.lastModified}>
                  <span title={f.name}>{f.name}</span>
                  <small>{size(f.size, lang)}</small>
                  <button
                    type="button"
                    class="ic"
                    aria-label={format(t.removeFile, { name: f.name })}
                    onClick={() => c.removeFile(f)}
                  >
                    <Icon name="close" />
                  </button>
                </li>
              ))}
            </ul>
          )}
          <div class={over ? 'drop over' : 'drop'}>
            <button
              type="button"
              class="btn"
              disabled={d.files.length >= reportLimits.filesMax}
              onClick={() => files.current?.click()}
            >
              <Icon name="clip" />
              {t.addFiles}
            </button>
            <span>{t.dropHint}</span>
            <input
              ref={files}
              type="file"
              multiple
              hidden
              onChange={(e) => {
                const input = e.currentTarget;
                if (input.files) c.addFiles(input.files);
                input.value = ''; // The same file may be picked again after removing it.
              }}
            />
          </div>
          {notes('files')}
        </section>
      )}

      {c.canRecord && (
        <section aria-labelledby="snag-vi">
          <h3 id="snag-vi">{t.video}</h3>
          {d.video ? (
            <div class="f">
              {/* biome-ignore lint/a11y/useMediaCaption: the visitor's own silent screen recording has no captions. */}
              <video src={d.video.url} controls playsInline preload="metadata" aria-label={t.videoPreview} />
              <button type="button" class="btn" onClick={c.removeVideo}>
                <Icon name="trash" />
                {t.removeVideo}
              </button>
            </div>
          ) : (
            <div class="f">
              <button type="button" class="btn" disabled={busy} onClick={c.record}>
                <Icon name="record" />
                {t.record}
              </button>
              <span class="hint">{format(t.recordHint, { max: reportLimits.videoMaxMs / 60000 })}</span>
            </div>
          )}
          {notes('video')}
        </section>
      )}

      {c.hasReplay() && (
        <div class="chk">
          <input
            id="snag-r"
            type="checkbox"
            checked={d.replay}
            aria-describedby="snag-rh"
            onChange={(e) => c.store.setDraft({ replay: e.currentTarget.checked })}
          />
          <div>
            <label for="snag-r">{t.replay}</label>
            <p class="hint" id="snag-rh">
              {t.replayHint}
            </p>
          </div>
        </div>
      )}

      {s.error && (
        <p class="alert" role="alert">
          {t[errorKey(s.error, t)]}
        </p>
      )}
      <button type="submit" class="btn pri full" disabled={busy}>
        {s.error ? t.retry : t.send}
      </button>
    </form>
  );
}
