import type { Messages } from './en';

/** Spanish (informal "tú", usual for web interfaces in Spain and Latin America). */
const es: Messages = {
  title: 'Enviar comentarios',
  close: 'Cerrar',
  welcomeTitle: 'Ayúdanos a mejorar este sitio web',
  welcomeText:
    '¿Has encontrado un problema o tienes una idea? Cuéntanoslo en pocas palabras. Puedes añadir capturas de pantalla y marcar en ellas exactamente lo que quieres decir.',
  start: 'Empezar',

  description: '¿Qué ha pasado?',
  descriptionPlaceholder: 'Describe el problema o tu sugerencia…',
  descriptionRequired: 'Describe el problema, por favor.',
  descriptionTooLong: 'Acorta tu mensaje a {max} caracteres, por favor.',
  charCount: '{n} de {max} caracteres',
  email: 'Tu correo electrónico (opcional)',
  emailHint: 'Solo si quieres recibir una respuesta.',
  emailInvalid: 'Introduce una dirección de correo válida o deja el campo vacío.',

  screenshots: 'Capturas de pantalla',
  takeScreenshot: 'Hacer una captura',
  captureScreen: 'Captura con pantalla compartida',
  captureScreenHint:
    'Compartir pantalla da una imagen más exacta: tu navegador te preguntará qué compartir. Elige esta pestaña.',
  capturing: 'Haciendo la captura…',
  screenshotFailed: 'No se ha podido hacer la captura. Inténtalo de nuevo.',
  screenshotN: 'Captura {n}',
  annotateN: 'Editar la captura {n}',
  removeN: 'Quitar la captura {n}',

  attachments: 'Archivos adjuntos',
  addFiles: 'Añadir archivos',
  dropHint: 'o arrástralos aquí',
  fileTooLarge: '{name} ocupa más de {max} MB.',
  fileEmpty: '{name} está vacío.',
  fileTypeNotAllowed: 'No se puede adjuntar {name}: este tipo de archivo no se admite.',
  filesFull: 'No se pueden adjuntar más archivos.',
  removeFile: 'Quitar {name}',

  video: 'Grabación de pantalla',
  record: 'Grabar la pantalla',
  recordHint: 'Máximo {max} min. Tu navegador te preguntará qué quieres compartir.',
  recording: 'Grabando',
  stopRecording: 'Detener la grabación',
  recordingFailed: 'No se ha podido hacer la grabación. Inténtalo de nuevo.',
  videoPreview: 'Vista previa de la grabación',
  removeVideo: 'Quitar la grabación',
  replay: 'Adjuntar la actividad del último minuto',
  replayHint:
    'Lo que ocurrió en esta página, para poder reproducir el problema. Lo que escribiste en los campos queda oculto.',

  send: 'Enviar',
  retry: 'Reintentar',
  sending: 'Enviando tu informe…',
  sendingHint: 'Mantén esta página abierta hasta que termine el envío.',
  percent: '{n} %',
  thanksTitle: '¡Gracias!',
  thanksText: 'Hemos recibido tu informe con el número',
  newReport: 'Enviar otro informe',

  confirmTitle: '¿Cerrar sin enviar?',
  confirmText: 'Guardamos tu borrador hasta que salgas de esta página o la vuelvas a cargar.',
  keepEditing: 'Seguir editando',
  discard: 'Descartar el borrador',
  poweredBy: 'Con la tecnología de {brand}',

  errNOT_FOUND: 'Este sitio web no acepta informes en este momento.',
  errFORBIDDEN_ORIGIN: 'Este sitio web no está configurado para aceptar informes desde esta dirección.',
  errRATE_LIMITED: 'Demasiados informes en poco tiempo. Espera unos minutos y vuelve a intentarlo.',
  errPLAN_LIMIT: 'Este sitio web no puede aceptar más informes ahora mismo. Inténtalo más tarde.',
  errFEATURE_DISABLED: 'Este sitio web ya no acepta algunos de tus adjuntos. Quítalos y vuelve a intentarlo.',
  errFILE_TOO_LARGE: 'Uno de tus archivos es demasiado grande. Quítalo y vuelve a intentarlo.',
  errFILE_TYPE_NOT_ALLOWED:
    'Uno de tus archivos es de un tipo que no se puede enviar. Quítalo y vuelve a intentarlo.',
  errINVALID_UPLOAD: 'Una subida no se ha completado. Inténtalo de nuevo.',
  errQUOTA_EXCEEDED:
    'Este sitio web se ha quedado sin espacio de almacenamiento. Quita tus capturas, la grabación y los archivos, y vuelve a intentarlo.',
  errINVALID_PARAMETERS:
    'No se han podido aceptar algunos datos. Revisa el formulario y vuelve a intentarlo.',
  errNETWORK: 'Ha fallado la conexión. Comprueba tu conexión a internet y vuelve a intentarlo.',
  errCONNECTION_ENDED:
    'Tu conexión con Snag ha terminado. Vuelve a conectarte con el botón de Snag de la barra de herramientas del navegador y después envía: tu informe se conserva.',
  errGENERIC: 'Algo ha salido mal. Inténtalo de nuevo.',

  editorTitle: 'Editar la captura',
  editorHelp:
    'Dibuja sobre la captura. Supr elimina la forma seleccionada y Ctrl+Z deshace. Esc termina el texto que estás escribiendo; si no, sale del editor y conserva tus marcas.',
  tools: 'Herramientas',
  toolSelect: 'Seleccionar y mover',
  toolRect: 'Rectángulo',
  toolArrow: 'Flecha',
  toolPen: 'Lápiz',
  toolText: 'Texto',
  toolBlur: 'Difuminar datos privados',
  toolCrop: 'Recortar',
  colors: 'Color',
  colorRed: 'Rojo',
  colorYellow: 'Amarillo',
  colorGreen: 'Verde',
  colorBlue: 'Azul',
  colorBlack: 'Negro',
  undo: 'Deshacer',
  redo: 'Rehacer',
  deleteShape: 'Eliminar la forma seleccionada',
  textInput: 'Texto que añadir',
  textHint: 'Intro o Esc añade el texto.',
  placeholdersNote:
    'Algunas imágenes de otros sitios no se han podido copiar y aparecen como recuadros grises ({n}).',
  cancel: 'Cancelar',
  done: 'Listo',
};

export default es;
