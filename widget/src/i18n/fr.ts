import type { Messages } from './en';

/** French. `\u00a0` is the no-break space French typography puts before ? ! : % and units. */
const fr: Messages = {
  title: 'Envoyer un commentaire',
  close: 'Fermer',
  welcomeTitle: 'Aidez-nous à améliorer ce site',
  welcomeText:
    'Vous avez repéré un problème ou vous avez une idée\u00a0? Décrivez-le en quelques mots. Vous pouvez ajouter des captures d’écran et y indiquer précisément ce que vous voulez dire.',
  start: 'Commencer',

  description: 'Que s’est-il passé\u00a0?',
  descriptionPlaceholder: 'Décrivez le problème ou votre suggestion…',
  descriptionRequired: 'Veuillez décrire le problème.',
  descriptionTooLong: 'Veuillez raccourcir votre message à {max}\u00a0caractères.',
  charCount: '{n} sur {max}\u00a0caractères',
  email: 'Votre e-mail (facultatif)',
  emailHint: 'Uniquement si vous souhaitez une réponse.',
  emailInvalid: 'Veuillez saisir une adresse e-mail valide ou laisser le champ vide.',

  screenshots: 'Captures d’écran',
  takeScreenshot: 'Faire une capture d’écran',
  captureScreen: 'Capture via le partage d’écran',
  captureScreenHint:
    'Le partage d’écran donne une image plus exacte\u00a0: votre navigateur vous demande quoi partager, choisissez cet onglet.',
  capturing: 'Capture en cours…',
  screenshotFailed: 'La capture d’écran a échoué. Veuillez réessayer.',
  screenshotN: 'Capture {n}',
  annotateN: 'Annoter la capture {n}',
  removeN: 'Supprimer la capture {n}',

  attachments: 'Pièces jointes',
  addFiles: 'Ajouter des fichiers',
  dropHint: 'ou déposez-les ici',
  fileTooLarge: '{name} dépasse {max}\u00a0Mo.',
  fileEmpty: '{name} est vide.',
  fileTypeNotAllowed: '{name} ne peut pas être joint\u00a0: ce type de fichier n’est pas accepté.',
  filesFull: 'Vous ne pouvez plus joindre d’autres fichiers.',
  removeFile: 'Supprimer {name}',

  video: 'Enregistrement d’écran',
  record: 'Enregistrer l’écran',
  recordHint: '{max}\u00a0min maximum. Votre navigateur vous demandera quoi partager.',
  recording: 'Enregistrement',
  stopRecording: 'Arrêter l’enregistrement',
  recordingFailed: 'L’enregistrement a échoué. Veuillez réessayer.',
  videoPreview: 'Aperçu de votre enregistrement',
  removeVideo: 'Supprimer l’enregistrement',
  replay: 'Joindre l’activité de la dernière minute',
  replayHint:
    'Ce qui s’est passé sur cette page, pour reproduire le problème. Ce que vous avez saisi dans les champs reste masqué.',

  send: 'Envoyer',
  retry: 'Réessayer',
  sending: 'Envoi de votre signalement…',
  sendingHint: 'Veuillez garder cette page ouverte jusqu’à la fin de l’envoi.',
  percent: '{n}\u00a0%',
  thanksTitle: 'Merci\u00a0!',
  thanksText: 'Nous avons bien reçu votre signalement. Son numéro\u00a0:',
  newReport: 'Envoyer un autre signalement',

  confirmTitle: 'Fermer sans envoyer\u00a0?',
  confirmText: 'Votre brouillon est conservé jusqu’à ce que vous quittiez ou rechargiez cette page.',
  keepEditing: 'Continuer',
  discard: 'Supprimer le brouillon',
  poweredBy: 'Propulsé par {brand}',

  errNOT_FOUND: 'Ce site n’accepte pas de signalements pour le moment.',
  errFORBIDDEN_ORIGIN: 'Ce site n’est pas configuré pour accepter des signalements depuis cette adresse.',
  errRATE_LIMITED: 'Trop de signalements en peu de temps. Veuillez patienter quelques minutes et réessayer.',
  errPLAN_LIMIT:
    'Ce site ne peut pas accepter d’autres signalements pour le moment. Veuillez réessayer plus tard.',
  errFEATURE_DISABLED: 'Ce site n’accepte plus certaines de vos pièces jointes. Supprimez-les et réessayez.',
  errFILE_TOO_LARGE: 'Un de vos fichiers est trop volumineux. Supprimez-le et réessayez.',
  errFILE_TYPE_NOT_ALLOWED:
    'Un de vos fichiers est d’un type qui ne peut pas être envoyé. Supprimez-le et réessayez.',
  errINVALID_UPLOAD: 'Un envoi de fichier n’a pas abouti. Veuillez réessayer.',
  errQUOTA_EXCEEDED:
    'Ce site n’a plus d’espace de stockage. Supprimez vos captures, votre enregistrement et vos fichiers, puis réessayez.',
  errINVALID_PARAMETERS:
    'Certaines informations n’ont pas pu être acceptées. Vérifiez le formulaire et réessayez.',
  errNETWORK: 'La connexion a échoué. Vérifiez votre connexion Internet et réessayez.',
  errCONNECTION_ENDED:
    "Votre connexion à Snag a pris fin. Reconnectez-vous avec le bouton Snag de la barre d'outils de votre navigateur, puis envoyez : votre rapport est conservé.",
  errGENERIC: 'Une erreur est survenue. Veuillez réessayer.',

  editorTitle: 'Annoter la capture',
  editorHelp:
    'Dessinez sur la capture. Suppr efface la forme sélectionnée, Ctrl+Z annule. Échap valide le texte en cours de saisie, sinon quitte l’éditeur en gardant vos annotations.',
  tools: 'Outils',
  toolSelect: 'Sélectionner et déplacer',
  toolRect: 'Rectangle',
  toolArrow: 'Flèche',
  toolPen: 'Crayon',
  toolText: 'Texte',
  toolBlur: 'Flouter les données privées',
  toolCrop: 'Recadrer',
  colors: 'Couleur',
  colorRed: 'Rouge',
  colorYellow: 'Jaune',
  colorGreen: 'Vert',
  colorBlue: 'Bleu',
  colorBlack: 'Noir',
  undo: 'Annuler',
  redo: 'Rétablir',
  deleteShape: 'Supprimer la forme sélectionnée',
  textInput: 'Texte à ajouter',
  textHint: 'Entrée ou Échap ajoute le texte.',
  placeholdersNote:
    'Certaines images d’autres sites n’ont pas pu être copiées et apparaissent en gris ({n}).',
  cancel: 'Abandonner',
  done: 'Terminé',
};

export default fr;
