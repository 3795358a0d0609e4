import type { Messages } from './en';

/** German (formal "Sie", as on the dashboard). */
const de: Messages = {
  title: 'Feedback senden',
  close: 'Schließen',
  welcomeTitle: 'Helfen Sie uns, diese Website zu verbessern',
  welcomeText:
    'Sie haben ein Problem entdeckt oder eine Idee? Beschreiben Sie es in wenigen Worten. Sie können Screenshots hinzufügen und darin genau markieren, was Sie meinen.',
  start: 'Los geht’s',

  description: 'Was ist passiert?',
  descriptionPlaceholder: 'Beschreiben Sie das Problem oder Ihren Vorschlag …',
  descriptionRequired: 'Bitte beschreiben Sie das Problem.',
  descriptionTooLong: 'Bitte kürzen Sie Ihre Nachricht auf {max} Zeichen.',
  charCount: '{n} von {max} Zeichen',
  email: 'Ihre E-Mail-Adresse (optional)',
  emailHint: 'Nur wenn Sie eine Antwort wünschen.',
  emailInvalid: 'Bitte geben Sie eine gültige E-Mail-Adresse ein oder lassen Sie das Feld leer.',

  screenshots: 'Screenshots',
  takeScreenshot: 'Screenshot aufnehmen',
  captureScreen: 'Screenshot per Bildschirmfreigabe',
  captureScreenHint:
    'Die Bildschirmfreigabe liefert ein genaueres Bild: Ihr Browser fragt, was Sie teilen möchten. Wählen Sie diesen Tab.',
  capturing: 'Screenshot wird aufgenommen …',
  screenshotFailed: 'Der Screenshot konnte nicht aufgenommen werden. Bitte versuchen Sie es erneut.',
  screenshotN: 'Screenshot {n}',
  annotateN: 'Screenshot {n} bearbeiten',
  removeN: 'Screenshot {n} entfernen',

  attachments: 'Anhänge',
  addFiles: 'Dateien hinzufügen',
  dropHint: 'oder hierher ziehen',
  fileTooLarge: '{name} ist größer als {max} MB.',
  fileEmpty: '{name} ist leer.',
  fileTypeNotAllowed: '{name} kann nicht angehängt werden: Dieser Dateityp wird nicht angenommen.',
  filesFull: 'Es können keine weiteren Dateien angehängt werden.',
  removeFile: '{name} entfernen',

  video: 'Bildschirmaufnahme',
  record: 'Bildschirm aufnehmen',
  recordHint: 'Höchstens {max} Min. Ihr Browser fragt, was Sie teilen möchten.',
  recording: 'Aufnahme läuft',
  stopRecording: 'Aufnahme beenden',
  recordingFailed: 'Die Aufnahme ist fehlgeschlagen. Bitte versuchen Sie es erneut.',
  videoPreview: 'Vorschau Ihrer Aufnahme',
  removeVideo: 'Aufnahme entfernen',
  replay: 'Die Aktivität der letzten Minute anhängen',
  replayHint:
    'Was auf dieser Seite geschah, damit sich das Problem nachvollziehen lässt. Was Sie in Felder eingegeben haben, bleibt verborgen.',

  send: 'Senden',
  retry: 'Erneut versuchen',
  sending: 'Ihre Meldung wird gesendet …',
  sendingHint: 'Bitte lassen Sie diese Seite geöffnet, bis der Vorgang abgeschlossen ist.',
  percent: '{n} %',
  thanksTitle: 'Vielen Dank!',
  thanksText: 'Ihre Meldung ist eingegangen. Sie hat die Nummer',
  newReport: 'Weitere Meldung senden',

  confirmTitle: 'Schließen, ohne zu senden?',
  confirmText: 'Ihr Entwurf bleibt erhalten, bis Sie diese Seite verlassen oder neu laden.',
  keepEditing: 'Weiter bearbeiten',
  discard: 'Entwurf verwerfen',
  poweredBy: 'Bereitgestellt von {brand}',

  errNOT_FOUND: 'Diese Website nimmt derzeit keine Meldungen entgegen.',
  errFORBIDDEN_ORIGIN: 'Diese Website ist nicht dafür eingerichtet, Meldungen von dieser Adresse anzunehmen.',
  errRATE_LIMITED:
    'Zu viele Meldungen in kurzer Zeit. Bitte warten Sie einige Minuten und versuchen Sie es dann erneut.',
  errPLAN_LIMIT:
    'Diese Website kann im Moment keine weiteren Meldungen annehmen. Bitte versuchen Sie es später erneut.',
  errFEATURE_DISABLED:
    'Diese Website nimmt einige Ihrer Anhänge nicht mehr an. Entfernen Sie sie und versuchen Sie es erneut.',
  errFILE_TOO_LARGE: 'Eine Ihrer Dateien ist zu groß. Entfernen Sie sie und versuchen Sie es erneut.',
  errFILE_TYPE_NOT_ALLOWED:
    'Eine Ihrer Dateien hat einen Typ, der nicht gesendet werden kann. Entfernen Sie sie und versuchen Sie es erneut.',
  errINVALID_UPLOAD: 'Ein Upload wurde nicht abgeschlossen. Bitte versuchen Sie es erneut.',
  errQUOTA_EXCEEDED:
    'Der Speicherplatz dieser Website ist aufgebraucht. Entfernen Sie Ihre Screenshots, die Aufnahme und die Dateien und versuchen Sie es dann erneut.',
  errINVALID_PARAMETERS:
    'Einige Angaben konnten nicht angenommen werden. Bitte prüfen Sie das Formular und versuchen Sie es erneut.',
  errNETWORK:
    'Die Verbindung ist fehlgeschlagen. Prüfen Sie Ihre Internetverbindung und versuchen Sie es erneut.',
  errCONNECTION_ENDED:
    'Ihre Verbindung zu Snag ist beendet. Verbinden Sie sich über die Snag-Schaltfläche in der Symbolleiste Ihres Browsers erneut und senden Sie dann: Ihre Meldung bleibt erhalten.',
  errGENERIC: 'Etwas ist schiefgelaufen. Bitte versuchen Sie es erneut.',

  editorTitle: 'Screenshot bearbeiten',
  editorHelp:
    'Zeichnen Sie auf dem Screenshot. Entf löscht die ausgewählte Form, Strg+Z macht rückgängig. Esc schließt den gerade getippten Text ab, sonst beendet es den Editor und behält Ihre Markierungen.',
  tools: 'Werkzeuge',
  toolSelect: 'Auswählen und verschieben',
  toolRect: 'Rechteck',
  toolArrow: 'Pfeil',
  toolPen: 'Stift',
  toolText: 'Text',
  toolBlur: 'Private Daten verpixeln',
  toolCrop: 'Zuschneiden',
  colors: 'Farbe',
  colorRed: 'Rot',
  colorYellow: 'Gelb',
  colorGreen: 'Grün',
  colorBlue: 'Blau',
  colorBlack: 'Schwarz',
  undo: 'Rückgängig',
  redo: 'Wiederholen',
  deleteShape: 'Ausgewählte Form löschen',
  textInput: 'Einzufügender Text',
  textHint: 'Enter oder Esc fügt den Text ein.',
  placeholdersNote:
    'Einige Bilder anderer Websites ließen sich nicht übernehmen und erscheinen als graue Flächen ({n}).',
  cancel: 'Abbrechen',
  done: 'Fertig',
};

export default de;
