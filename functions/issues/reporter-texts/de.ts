/** Deutsch (Sie-Form, wie das Widget): Texte der Mails an Meldende und ihrer Statusseite (issue 24). */
import type { ReporterTexts } from './en';

const de: ReporterTexts = {
  greeting: 'Guten Tag,',
  confirmSubject: 'Wir haben Ihre Meldung #{n} erhalten',
  confirmIntro:
    'vielen Dank für Ihre Meldung an {project}. Sie ist als #{n} eingegangen, und das Team wird sie sich ansehen.',
  statusLink: 'Auf der Statusseite können Sie sie verfolgen und antworten:',
  open: 'Statusseite öffnen',
  commentSubject: 'Neue Antwort zu Ihrer Meldung #{n}',
  commentIntro: 'das Team von {project} hat auf Ihre Meldung #{n} geantwortet:',
  resolvedSubject: 'Ihre Meldung #{n} wurde erledigt',
  resolvedIntro:
    'das Team von {project} hat Ihre Meldung #{n} als erledigt markiert. Vielen Dank für Ihre Hilfe.',
  reopenedSubject: 'Ihre Meldung #{n} wurde wieder geöffnet',
  reopenedIntro: 'das Team von {project} hat Ihre Meldung #{n} wieder geöffnet und sieht sie sich erneut an.',
  why: 'Sie erhalten diese E-Mail, weil Sie bei einer Meldung an {project} Ihre Adresse angegeben haben.',
  unsubscribe: 'Keine weiteren E-Mails zu dieser Meldung:',

  pageTitle: 'Ihre Meldung #{n}',
  status: 'Status',
  received: 'Eingegangen',
  working: 'In Bearbeitung',
  resolved: 'Erledigt',
  submitted: 'Gesendet am {date}',
  description: 'Ihre Meldung',
  conversation: 'Antworten',
  noComments: 'Noch keine Antworten.',
  you: 'Sie',
  replyLabel: 'Ihre Antwort',
  replyHint: 'Das Team von {project} liest sie. Höchstens {max} Zeichen.',
  send: 'Antwort senden',
  sending: 'Wird gesendet…',
  sent: 'Ihre Antwort wurde gesendet.',
  replyInvalid: 'Bitte schreiben Sie eine Antwort mit höchstens {max} Zeichen.',
  rateLimited:
    'Sie haben in kurzer Zeit mehrere Antworten gesendet. Bitte versuchen Sie es in ein paar Minuten noch einmal.',
  failed: 'Ihre Antwort konnte nicht gesendet werden. Bitte versuchen Sie es noch einmal.',
  mailsOff: 'Sie erhalten keine E-Mails mehr zu dieser Meldung.',
  notFoundTitle: 'Seite nicht gefunden',
  notFoundText: 'Dieser Link ist ungültig, oder die Meldung kann hier nicht mehr angezeigt werden.',
  unsubscribeTitle: 'Keine E-Mails mehr zu Meldung #{n}?',
  unsubscribeText:
    'Sie erhalten dann keine E-Mails mehr zu dieser Meldung. Ihre Statusseite bleibt erreichbar.',
  unsubscribeButton: 'E-Mails abbestellen',
  unsubscribedTitle: 'E-Mails abbestellt',
  unsubscribedText: 'Sie erhalten keine E-Mails mehr zu Meldung #{n}.',
};

export default de;
