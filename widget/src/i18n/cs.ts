import type { Messages } from './en';

/** Czech. */
const cs: Messages = {
  title: 'Odeslat zpětnou vazbu',
  close: 'Zavřít',
  welcomeTitle: 'Pomozte nám vylepšit tento web',
  welcomeText:
    'Narazili jste na problém nebo máte nápad? Popište ho pár slovy. Můžete přidat snímky obrazovky a přesně na nich vyznačit, co máte na mysli.',
  start: 'Začít',

  description: 'Co se stalo?',
  descriptionPlaceholder: 'Popište problém nebo svůj návrh…',
  descriptionRequired: 'Popište prosím problém.',
  descriptionTooLong: 'Zkraťte prosím zprávu na {max} znaků.',
  charCount: '{n} z {max} znaků',
  email: 'Váš e-mail (nepovinné)',
  emailHint: 'Jen pokud chcete odpověď.',
  emailInvalid: 'Zadejte platnou e-mailovou adresu, nebo pole nechte prázdné.',

  screenshots: 'Snímky obrazovky',
  takeScreenshot: 'Pořídit snímek',
  captureScreen: 'Snímek pomocí sdílení obrazovky',
  captureScreenHint:
    'Sdílení obrazovky dá přesnější snímek: prohlížeč se zeptá, co chcete sdílet. Vyberte tuto kartu.',
  capturing: 'Pořizuji snímek…',
  screenshotFailed: 'Snímek se nepodařilo pořídit. Zkuste to prosím znovu.',
  screenshotN: 'Snímek {n}',
  annotateN: 'Upravit snímek {n}',
  removeN: 'Odebrat snímek {n}',

  attachments: 'Přílohy',
  addFiles: 'Přidat soubory',
  dropHint: 'nebo je sem přetáhněte',
  fileTooLarge: 'Soubor {name} je větší než {max} MB.',
  fileEmpty: 'Soubor {name} je prázdný.',
  fileTypeNotAllowed: 'Soubor {name} nelze přiložit: tento typ souboru není podporován.',
  filesFull: 'Další soubory už nelze přiložit.',
  removeFile: 'Odebrat {name}',

  video: 'Záznam obrazovky',
  record: 'Nahrát obrazovku',
  recordHint: 'Nejvýše {max} min. Prohlížeč se zeptá, co chcete sdílet.',
  recording: 'Nahrávání',
  stopRecording: 'Zastavit nahrávání',
  recordingFailed: 'Záznam se nepodařilo pořídit. Zkuste to prosím znovu.',
  videoPreview: 'Náhled záznamu',
  removeVideo: 'Odebrat záznam',
  replay: 'Připojit aktivitu z poslední minuty',
  replayHint:
    'Co se na této stránce dělo, aby šlo problém zopakovat. Co jste napsali do polí, zůstane skryté.',

  send: 'Odeslat',
  retry: 'Zkusit znovu',
  sending: 'Odesílám hlášení…',
  sendingHint: 'Nechte prosím tuto stránku otevřenou, dokud se odesílání nedokončí.',
  percent: '{n} %',
  thanksTitle: 'Děkujeme!',
  thanksText: 'Vaše hlášení jsme přijali pod číslem',
  newReport: 'Odeslat další hlášení',

  confirmTitle: 'Zavřít bez odeslání?',
  confirmText: 'Rozepsané hlášení zůstane uložené, dokud tuto stránku neopustíte nebo znovu nenačtete.',
  keepEditing: 'Pokračovat v psaní',
  discard: 'Zahodit koncept',
  poweredBy: 'Službu poskytuje {brand}',

  errNOT_FOUND: 'Tento web momentálně nepřijímá hlášení.',
  errFORBIDDEN_ORIGIN: 'Tento web nemá povoleno přijímat hlášení z této adresy.',
  errRATE_LIMITED: 'Příliš mnoho hlášení za krátkou dobu. Počkejte prosím několik minut a zkuste to znovu.',
  errPLAN_LIMIT: 'Tento web teď nemůže přijmout další hlášení. Zkuste to prosím později.',
  errFEATURE_DISABLED: 'Tento web už nepřijímá některé z vašich příloh. Odeberte je a zkuste to znovu.',
  errFILE_TOO_LARGE: 'Jeden ze souborů je příliš velký. Odeberte ho a zkuste to znovu.',
  errFILE_TYPE_NOT_ALLOWED: 'Jeden ze souborů má typ, který nelze odeslat. Odeberte ho a zkuste to znovu.',
  errINVALID_UPLOAD: 'Nahrávání se nedokončilo. Zkuste to prosím znovu.',
  errQUOTA_EXCEEDED: 'Tento web už nemá volné úložiště. Odeberte snímky, záznam a soubory a zkuste to znovu.',
  errINVALID_PARAMETERS:
    'Některé údaje nebylo možné přijmout. Zkontrolujte prosím formulář a zkuste to znovu.',
  errNETWORK: 'Spojení selhalo. Zkontrolujte připojení k internetu a zkuste to znovu.',
  errCONNECTION_ENDED:
    'Vaše připojení ke Snag skončilo. Připojte se znovu tlačítkem Snag na panelu nástrojů prohlížeče a pak odešlete: hlášení zůstane zachováno.',
  errGENERIC: 'Něco se pokazilo. Zkuste to prosím znovu.',

  editorTitle: 'Úprava snímku',
  editorHelp:
    'Kreslete do snímku. Klávesa Delete odstraní vybraný tvar, Ctrl+Z vrátí krok zpět. Escape dokončí právě psaný text, jinak editor zavře a vaše značky ponechá.',
  tools: 'Nástroje',
  toolSelect: 'Vybrat a přesunout',
  toolRect: 'Obdélník',
  toolArrow: 'Šipka',
  toolPen: 'Pero',
  toolText: 'Text',
  toolBlur: 'Rozmazat soukromé údaje',
  toolCrop: 'Oříznout',
  colors: 'Barva',
  colorRed: 'Červená',
  colorYellow: 'Žlutá',
  colorGreen: 'Zelená',
  colorBlue: 'Modrá',
  colorBlack: 'Černá',
  undo: 'Zpět',
  redo: 'Znovu',
  deleteShape: 'Smazat vybraný tvar',
  textInput: 'Text k vložení',
  textHint: 'Enter nebo Escape text vloží.',
  placeholdersNote:
    'Některé obrázky z jiných webů nešlo zkopírovat, a proto jsou zobrazeny jako šedé plochy ({n}).',
  cancel: 'Zrušit',
  done: 'Hotovo',
};

export default cs;
