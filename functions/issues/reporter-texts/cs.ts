/** Čeština (vykání, jako widget): e-maily oznamovateli a jeho stránka se stavem (issue 24). */
import type { ReporterTexts } from './en';

const cs: ReporterTexts = {
  greeting: 'Dobrý den,',
  confirmSubject: 'Vaše hlášení č. {n} jsme přijali',
  confirmIntro:
    'děkujeme za vaše hlášení pro {project}. Přijali jsme ho pod číslem {n} a tým se na něj podívá.',
  statusLink: 'Na stránce se stavem ho můžete sledovat a odpovídat:',
  open: 'Otevřít stránku se stavem',
  commentSubject: 'Nová odpověď k vašemu hlášení č. {n}',
  commentIntro: 'tým {project} odpověděl na vaše hlášení č. {n}:',
  resolvedSubject: 'Vaše hlášení č. {n} bylo vyřešeno',
  resolvedIntro: 'tým {project} označil vaše hlášení č. {n} jako vyřešené. Děkujeme za vaši pomoc.',
  reopenedSubject: 'Vaše hlášení č. {n} bylo znovu otevřeno',
  reopenedIntro: 'tým {project} znovu otevřel vaše hlášení č. {n} a opět se jím zabývá.',
  why: 'Tento e-mail dostáváte, protože jste u hlášení pro {project} uvedli svou adresu.',
  unsubscribe: 'Nedostávat další e-maily k tomuto hlášení:',

  pageTitle: 'Vaše hlášení č. {n}',
  status: 'Stav',
  received: 'Přijato',
  working: 'Řeší se',
  resolved: 'Vyřešeno',
  submitted: 'Odesláno {date}',
  description: 'Co jste nahlásili',
  conversation: 'Odpovědi',
  noComments: 'Zatím žádné odpovědi.',
  you: 'Vy',
  replyLabel: 'Vaše odpověď',
  replyHint: 'Tým {project} si ji přečte. Nejvýše {max} znaků.',
  send: 'Odeslat odpověď',
  sending: 'Odesílá se…',
  sent: 'Vaše odpověď byla odeslána.',
  replyInvalid: 'Napište prosím odpověď o nejvýše {max} znacích.',
  rateLimited: 'V krátké době jste odeslali několik odpovědí. Zkuste to prosím znovu za pár minut.',
  failed: 'Vaši odpověď se nepodařilo odeslat. Zkuste to prosím znovu.',
  mailsOff: 'K tomuto hlášení už nedostáváte e-maily.',
  notFoundTitle: 'Stránka nenalezena',
  notFoundText: 'Tento odkaz není platný, nebo hlášení už zde nelze zobrazit.',
  unsubscribeTitle: 'Přestat posílat e-maily k hlášení č. {n}?',
  unsubscribeText: 'K tomuto hlášení už nebudete dostávat e-maily. Stránka se stavem zůstane dostupná.',
  unsubscribeButton: 'Přestat posílat e-maily',
  unsubscribedTitle: 'E-maily odhlášeny',
  unsubscribedText: 'K hlášení č. {n} už nebudete dostávat žádné e-maily.',
};

export default cs;
