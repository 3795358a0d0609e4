/**
 * English: the reference language of the reporter's mails and status page (issue 24). Every other file has
 * exactly these keys with the same `{placeholders}` (test/unit/functions/reporter.test.ts). The
 * reporter is a visitor of the client's site, not a Snag user: the texts speak for the client's team.
 */
const en = {
  greeting: 'Hello,',
  confirmSubject: 'We have received your report #{n}',
  confirmIntro:
    'Thank you for your report to {project}. It has arrived as #{n}, and the team will look at it.',
  statusLink: 'You can follow it and reply on its status page:',
  open: 'Open the status page',
  commentSubject: 'New reply to your report #{n}',
  commentIntro: 'The team of {project} has replied to your report #{n}:',
  resolvedSubject: 'Your report #{n} has been resolved',
  resolvedIntro: 'The team of {project} has marked your report #{n} as resolved. Thank you for your help.',
  reopenedSubject: 'Your report #{n} has been reopened',
  reopenedIntro: 'The team of {project} has reopened your report #{n} and is looking at it again.',
  why: 'You receive this mail because you left your address with a report to {project}.',
  unsubscribe: 'No more mails about this report:',

  pageTitle: 'Your report #{n}',
  status: 'Status',
  received: 'Received',
  working: 'Being worked on',
  resolved: 'Resolved',
  submitted: 'Submitted on {date}',
  description: 'What you reported',
  conversation: 'Replies',
  noComments: 'No replies yet.',
  you: 'You',
  replyLabel: 'Your reply',
  replyHint: 'The team of {project} will read it. At most {max} characters.',
  send: 'Send reply',
  sending: 'Sending…',
  sent: 'Your reply has been sent.',
  replyInvalid: 'Please write a reply of at most {max} characters.',
  rateLimited: 'You have sent several replies in a short time. Please try again in a few minutes.',
  failed: 'Your reply could not be sent. Please try again.',
  mailsOff: 'You no longer receive mails about this report.',
  notFoundTitle: 'Page not found',
  notFoundText: 'This link is not valid, or the report can no longer be viewed here.',
  unsubscribeTitle: 'Stop mails about report #{n}?',
  unsubscribeText: 'You will no longer receive mails about this report. Its status page stays available.',
  unsubscribeButton: 'Stop mails',
  unsubscribedTitle: 'Mails stopped',
  unsubscribedText: 'You will receive no more mails about report #{n}.',
};

export type ReporterTexts = Record<keyof typeof en, string>;
export default en satisfies ReporterTexts;
