/** Français (vouvoiement, comme le widget) : les e-mails au déclarant et sa page de suivi (issue 24). */
import type { ReporterTexts } from './en';

const fr: ReporterTexts = {
  greeting: 'Bonjour,',
  confirmSubject: 'Nous avons bien reçu votre signalement n° {n}',
  confirmIntro:
    'Merci pour votre signalement à {project}. Il a été enregistré sous le n° {n} et l’équipe va l’examiner.',
  statusLink: 'Vous pouvez suivre son avancement et répondre sur sa page de suivi :',
  open: 'Ouvrir la page de suivi',
  commentSubject: 'Nouvelle réponse à votre signalement n° {n}',
  commentIntro: 'L’équipe de {project} a répondu à votre signalement n° {n} :',
  resolvedSubject: 'Votre signalement n° {n} a été résolu',
  resolvedIntro:
    'L’équipe de {project} a marqué votre signalement n° {n} comme résolu. Merci pour votre aide.',
  reopenedSubject: 'Votre signalement n° {n} a été rouvert',
  reopenedIntro: 'L’équipe de {project} a rouvert votre signalement n° {n} et l’examine à nouveau.',
  why: 'Vous recevez cet e-mail car vous avez laissé votre adresse avec un signalement à {project}.',
  unsubscribe: 'Ne plus recevoir d’e-mails sur ce signalement :',

  pageTitle: 'Votre signalement n° {n}',
  status: 'Statut',
  received: 'Reçu',
  working: 'En cours de traitement',
  resolved: 'Résolu',
  submitted: 'Envoyé le {date}',
  description: 'Votre signalement',
  conversation: 'Réponses',
  noComments: 'Pas encore de réponse.',
  you: 'Vous',
  replyLabel: 'Votre réponse',
  replyHint: 'L’équipe de {project} la lira. {max} caractères au maximum.',
  send: 'Envoyer la réponse',
  sending: 'Envoi en cours…',
  sent: 'Votre réponse a été envoyée.',
  replyInvalid: 'Veuillez écrire une réponse de {max} caractères au maximum.',
  rateLimited:
    'Vous avez envoyé plusieurs réponses en peu de temps. Veuillez réessayer dans quelques minutes.',
  failed: 'Votre réponse n’a pas pu être envoyée. Veuillez réessayer.',
  mailsOff: 'Vous ne recevez plus d’e-mails sur ce signalement.',
  notFoundTitle: 'Page introuvable',
  notFoundText: 'Ce lien n’est pas valide, ou le signalement ne peut plus être consulté ici.',
  unsubscribeTitle: 'Ne plus recevoir d’e-mails sur le signalement n° {n} ?',
  unsubscribeText: 'Vous ne recevrez plus d’e-mails sur ce signalement. Sa page de suivi reste accessible.',
  unsubscribeButton: 'Ne plus recevoir d’e-mails',
  unsubscribedTitle: 'Désinscription confirmée',
  unsubscribedText: 'Vous ne recevrez plus d’e-mails sur le signalement n° {n}.',
};

export default fr;
