/**
 * The session replay's texts (issue 33: the issue page's Replay section and timeline, the public page
 * /replay/{token}), English and German, the `replay` part of the catalogue. They load with the parts that
 * show them, not with the dashboard's first load, whose budget (DESIGN.md section 7) carries the language
 * catalogues: `web/src/replay/texts.ts` adds them to both languages, and those parts import it.
 */
import type { Lang } from './language';

const en = {
  title: 'Session replay',
  stepsTitle: 'Steps to reproduce',
  summary: 'The last {{seconds}} s before the report, as the visitor saw the page.',
  show: 'Show replay',
  hide: 'Hide replay',
  loading: 'Loading the replay…',
  failed: 'The replay could not be loaded.',
  unplayable: 'This recording cannot be played.',
  stopped: 'Recording stopped early: the page changed too fast.',
  player: 'Replay player',
  frame: 'Replay of the visitor’s page',
  play: 'Play',
  pause: 'Pause',
  speed: 'Speed',
  position: 'Position in the replay',
  keys: 'Space plays or pauses; the arrow keys skip 5 seconds.',
  timeline: 'Timeline',
  timelineHint: 'Choose an entry to see the replay at that moment.',
  noReplayPlan: 'No replay: session replay is part of the Starter and Business plans.',
  noReplayOff: 'No replay: session replay is off for this project (Widget settings).',
  noReplayLeftOut: 'No replay: the visitor left it out, or their browser could not record.',
  empty: 'The report carries no steps and no errors.',
  before_one: '{{count}} s before the report',
  before_other: '{{count}} s before the report',
  atReport: 'At the report',
  outside: 'before the recording',
  step: 'Step {{number}}',
  kinds: {
    click: 'Clicked',
    focus: 'Focused',
    change: 'Changed',
    submit: 'Submitted',
    load: 'Loaded',
    navigate: 'Went to',
    history: 'Back or forward to',
    open: 'Opened the feedback widget',
    error: 'Error',
    request: 'Failed request',
    report: 'Report sent',
  },
  pageTitle: 'Replay',
  gone: 'This replay link is invalid or has expired. Ask for a new link in the issue.',
  publicNote: 'A replay shared from Snag. What the visitor typed is never recorded.',
};

type Widen<T> = { [K in keyof T]: T[K] extends string ? string : Widen<T[K]> };
export type ReplayTexts = Widen<typeof en>;

const de: ReplayTexts = {
  title: 'Sitzungsaufzeichnung',
  stepsTitle: 'Schritte zum Nachstellen',
  summary: 'Die letzten {{seconds}} s vor der Meldung, so wie die Seite für die besuchende Person aussah.',
  show: 'Aufzeichnung zeigen',
  hide: 'Aufzeichnung ausblenden',
  loading: 'Aufzeichnung wird geladen…',
  failed: 'Die Aufzeichnung konnte nicht geladen werden.',
  unplayable: 'Diese Aufzeichnung lässt sich nicht abspielen.',
  stopped: 'Aufzeichnung vorzeitig beendet: Die Seite hat sich zu schnell verändert.',
  player: 'Wiedergabe der Aufzeichnung',
  frame: 'Aufzeichnung der Seite der besuchenden Person',
  play: 'Abspielen',
  pause: 'Pause',
  speed: 'Geschwindigkeit',
  position: 'Position in der Aufzeichnung',
  keys: 'Leertaste spielt ab oder pausiert; die Pfeiltasten springen 5 Sekunden.',
  timeline: 'Zeitleiste',
  timelineHint: 'Wählen Sie einen Eintrag, um die Aufzeichnung an dieser Stelle zu sehen.',
  noReplayPlan: 'Keine Aufzeichnung: Sitzungsaufzeichnungen gibt es in den Tarifen Starter und Business.',
  noReplayOff:
    'Keine Aufzeichnung: Sitzungsaufzeichnungen sind für dieses Projekt aus (Widget-Einstellungen).',
  noReplayLeftOut:
    'Keine Aufzeichnung: Die besuchende Person hat sie weggelassen, oder ihr Browser konnte nicht aufzeichnen.',
  empty: 'Die Meldung enthält keine Schritte und keine Fehler.',
  before_one: '{{count}} s vor der Meldung',
  before_other: '{{count}} s vor der Meldung',
  atReport: 'Bei der Meldung',
  outside: 'vor der Aufzeichnung',
  step: 'Schritt {{number}}',
  kinds: {
    click: 'Geklickt',
    focus: 'Fokussiert',
    change: 'Geändert',
    submit: 'Abgeschickt',
    load: 'Geladen',
    navigate: 'Gewechselt zu',
    history: 'Zurück oder vor zu',
    open: 'Feedback-Widget geöffnet',
    error: 'Fehler',
    request: 'Fehlgeschlagene Anfrage',
    report: 'Meldung gesendet',
  },
  pageTitle: 'Aufzeichnung',
  gone: 'Dieser Link zur Aufzeichnung ist ungültig oder abgelaufen. Fordern Sie im Issue einen neuen Link an.',
  publicNote:
    'Eine aus Snag geteilte Aufzeichnung. Was die besuchende Person eingegeben hat, wird nie aufgezeichnet.',
};

export const replayTexts: Record<Lang, ReplayTexts> = { en, de };
