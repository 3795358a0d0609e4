/**
 * English: the reference language. Every other file has exactly these keys, with the same `{placeholders}`
 * (test/unit/widget/i18n.test.ts). Numbers in texts come from constants (2,000 characters, 2 minutes),
 * so each language writes the word form that fits those values.
 */
const en = {
  title: 'Send feedback',
  close: 'Close',
  welcomeTitle: 'Help us improve this website',
  welcomeText:
    'Spotted a problem or have an idea? Tell us in a few words. You can add screenshots and mark exactly what you mean.',
  start: 'Get started',

  description: 'What happened?',
  descriptionPlaceholder: 'Describe the problem or your suggestion…',
  descriptionRequired: 'Please describe the problem.',
  descriptionTooLong: 'Please shorten your message to {max} characters.',
  charCount: '{n} of {max} characters',
  email: 'Your email (optional)',
  emailHint: 'Only if you would like a reply.',
  emailInvalid: 'Please enter a valid email address or leave the field empty.',

  screenshots: 'Screenshots',
  takeScreenshot: 'Take screenshot',
  captureScreen: 'Screenshot via screen sharing',
  captureScreenHint:
    'Screen sharing gives a more exact picture: your browser asks what to share, choose this tab.',
  capturing: 'Taking the screenshot…',
  screenshotFailed: 'The screenshot could not be taken. Please try again.',
  screenshotN: 'Screenshot {n}',
  annotateN: 'Annotate screenshot {n}',
  removeN: 'Remove screenshot {n}',

  attachments: 'Attachments',
  addFiles: 'Add files',
  dropHint: 'or drop them here',
  fileTooLarge: '{name} is larger than {max} MB.',
  fileEmpty: '{name} is empty.',
  fileTypeNotAllowed: '{name} cannot be attached: this type of file is not accepted.',
  filesFull: 'No more files can be attached.',
  removeFile: 'Remove {name}',

  video: 'Screen recording',
  record: 'Record screen',
  recordHint: 'At most {max} min. Your browser will ask what to share.',
  recording: 'Recording',
  stopRecording: 'Stop recording',
  recordingFailed: 'The recording could not be made. Please try again.',
  videoPreview: 'Preview of your recording',
  removeVideo: 'Remove recording',
  replay: 'Attach the last minute of activity',
  replayHint:
    'What happened on this page, so the problem can be reproduced. What you typed into fields is hidden.',

  send: 'Send',
  retry: 'Try again',
  sending: 'Sending your report…',
  sendingHint: 'Please keep this page open until it is done.',
  percent: '{n}%',
  thanksTitle: 'Thank you!',
  thanksText: 'Your report has been received. Its number is',
  newReport: 'Send another report',

  confirmTitle: 'Close without sending?',
  confirmText: 'Your draft is kept until you leave or reload this page.',
  keepEditing: 'Keep editing',
  discard: 'Discard draft',
  poweredBy: 'Powered by {brand}',

  errNOT_FOUND: 'This website is not accepting reports at the moment.',
  errFORBIDDEN_ORIGIN: 'This website is not set up to accept reports from this address.',
  errRATE_LIMITED: 'Too many reports in a short time. Please wait a few minutes and try again.',
  errPLAN_LIMIT: 'This website cannot accept more reports right now. Please try again later.',
  errFEATURE_DISABLED: 'This website no longer accepts some of your attachments. Remove them and try again.',
  errFILE_TOO_LARGE: 'One of your files is too large. Remove it and try again.',
  errFILE_TYPE_NOT_ALLOWED: 'One of your files is of a type that cannot be sent. Remove it and try again.',
  errINVALID_UPLOAD: 'An upload did not complete. Please try again.',
  errQUOTA_EXCEEDED:
    'This website has no storage space left. Remove your screenshots, recording and files, then try again.',
  errINVALID_PARAMETERS: 'Some details could not be accepted. Please check the form and try again.',
  errNETWORK: 'The connection failed. Check your internet connection and try again.',
  errCONNECTION_ENDED:
    "Your connection to Snag has ended. Connect again from the Snag button in your browser's toolbar, then send: your report is kept.",
  errGENERIC: 'Something went wrong. Please try again.',

  editorTitle: 'Annotate screenshot',
  editorHelp:
    'Draw on the screenshot. Delete removes the selected shape, Ctrl+Z undoes. Escape finishes the text you are typing, otherwise it leaves the editor and keeps your marks.',
  tools: 'Tools',
  toolSelect: 'Select and move',
  toolRect: 'Rectangle',
  toolArrow: 'Arrow',
  toolPen: 'Pen',
  toolText: 'Text',
  toolBlur: 'Blur private data',
  toolCrop: 'Crop',
  colors: 'Colour',
  colorRed: 'Red',
  colorYellow: 'Yellow',
  colorGreen: 'Green',
  colorBlue: 'Blue',
  colorBlack: 'Black',
  undo: 'Undo',
  redo: 'Redo',
  deleteShape: 'Delete selected shape',
  textInput: 'Text to add',
  textHint: 'Enter or Escape adds the text.',
  placeholdersNote: 'Some images from other websites could not be copied and show as grey boxes ({n}).',
  cancel: 'Cancel',
  done: 'Done',
};

export type Messages = Record<keyof typeof en, string>;
export default en;
