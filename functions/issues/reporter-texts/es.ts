/** Español (de usted, como el widget): los correos a quien informa y su página de estado (issue 24). */
import type { ReporterTexts } from './en';

const es: ReporterTexts = {
  greeting: 'Hola:',
  confirmSubject: 'Hemos recibido su informe n.º {n}',
  confirmIntro:
    'Gracias por su informe a {project}. Lo hemos registrado con el n.º {n} y el equipo lo revisará.',
  statusLink: 'Puede seguirlo y responder en su página de estado:',
  open: 'Abrir la página de estado',
  commentSubject: 'Nueva respuesta a su informe n.º {n}',
  commentIntro: 'El equipo de {project} ha respondido a su informe n.º {n}:',
  resolvedSubject: 'Su informe n.º {n} se ha resuelto',
  resolvedIntro: 'El equipo de {project} ha marcado su informe n.º {n} como resuelto. Gracias por su ayuda.',
  reopenedSubject: 'Su informe n.º {n} se ha reabierto',
  reopenedIntro: 'El equipo de {project} ha reabierto su informe n.º {n} y lo está revisando de nuevo.',
  why: 'Recibe este correo porque dejó su dirección en un informe a {project}.',
  unsubscribe: 'No recibir más correos sobre este informe:',

  pageTitle: 'Su informe n.º {n}',
  status: 'Estado',
  received: 'Recibido',
  working: 'En curso',
  resolved: 'Resuelto',
  submitted: 'Enviado el {date}',
  description: 'Lo que nos informó',
  conversation: 'Respuestas',
  noComments: 'Todavía no hay respuestas.',
  you: 'Usted',
  replyLabel: 'Su respuesta',
  replyHint: 'El equipo de {project} la leerá. Como máximo {max} caracteres.',
  send: 'Enviar respuesta',
  sending: 'Enviando…',
  sent: 'Su respuesta se ha enviado.',
  replyInvalid: 'Escriba una respuesta de como máximo {max} caracteres.',
  rateLimited: 'Ha enviado varias respuestas en poco tiempo. Vuelva a intentarlo dentro de unos minutos.',
  failed: 'No se ha podido enviar su respuesta. Vuelva a intentarlo.',
  mailsOff: 'Ya no recibe correos sobre este informe.',
  notFoundTitle: 'Página no encontrada',
  notFoundText: 'Este enlace no es válido o el informe ya no se puede consultar aquí.',
  unsubscribeTitle: '¿Dejar de recibir correos sobre el informe n.º {n}?',
  unsubscribeText: 'Ya no recibirá correos sobre este informe. Su página de estado seguirá disponible.',
  unsubscribeButton: 'Dejar de recibir correos',
  unsubscribedTitle: 'Correos cancelados',
  unsubscribedText: 'Ya no recibirá más correos sobre el informe n.º {n}.',
};

export default es;
