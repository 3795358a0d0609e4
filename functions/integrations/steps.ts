/**
 * Steps to reproduce as everything that leaves Snag writes them (docs/replay.md "Out of Snag"): one
 * sentence per step that a developer can follow, oldest first, with how long before the report it
 * happened ("Clicked “Pay now” (12 s before the report)", "Went to /checkout (4 s before the report)").
 *
 * The sentence is Snag's words around the visitor's label. The label is the visitor's page talking (a
 * button's text, an address), so each deliverer hands in its own neutraliser of visitor text, the one its
 * description and facts already go through: a label can then no more mention, link or act in the tracker
 * than the description can. A neutraliser that makes code (a code span) is not quoted again.
 *
 * No server imports: snag-mcp (lib/mcp) writes its steps with this same rule from the REST answer.
 */
import type { Lang } from '#contracts/errors';
import { type Step, type StepKind, type StepRole, stepTarget } from '#contracts/intake';

/** How a deliverer shows the visitor's label: `text` plain text in quotes, or `code` (already delimited). */
export type StepLabel = { text: (label: string) => string } | { code: (label: string) => string };

type Sentence = (label: string) => string;

const texts = {
  en: {
    heading: 'Steps to reproduce',
    watch: 'Watch the replay',
    /** Said after the link: what the recording covers, and how long the link works. */
    replayNote: (seconds: number, days: number) =>
      `The last ${seconds} s on the page before the report; the link works for ${days} days.`,
    stopped: 'The recording stopped early: the page changed too much to record.',
    before: (ago: string) => `(${ago} before the report)`,
    quote: (s: string) => `“${s}”`,
    roles: {
      link: 'link',
      button: 'button',
      field: 'field',
      list: 'list',
      label: 'label',
      summary: 'summary',
      form: 'form',
      menuitem: 'menu item',
      tab: 'tab',
      checkbox: 'checkbox',
      option: 'option',
    } satisfies Record<StepRole, string>,
    kinds: {
      click: (l) => `Clicked ${l}`,
      focus: (l) => `Moved into the field ${l}`,
      change: (l) => `Changed the field ${l}`,
      submit: (l) => `Submitted the form ${l}`,
      load: (l) => `Loaded the page ${l}`,
      navigate: (l) => `Went to ${l}`,
      history: (l) => `Went back or forward to ${l}`,
      open: () => 'Opened the feedback widget',
    } satisfies Record<StepKind, Sentence>,
  },
  de: {
    heading: 'Schritte zum Nachstellen',
    watch: 'Aufzeichnung ansehen',
    replayNote: (seconds: number, days: number) =>
      `Die letzten ${seconds} s auf der Seite vor der Meldung; der Link ist ${days} Tage gültig.`,
    stopped: 'Die Aufzeichnung endete früher: Die Seite änderte sich zu stark.',
    before: (ago: string) => `(${ago} vor der Meldung)`,
    quote: (s: string) => `„${s}“`,
    roles: {
      link: 'Link',
      button: 'Schaltfläche',
      field: 'Feld',
      list: 'Auswahlliste',
      label: 'Beschriftung',
      summary: 'Aufklappbereich',
      form: 'Formular',
      menuitem: 'Menüpunkt',
      tab: 'Registerkarte',
      checkbox: 'Kontrollkästchen',
      option: 'Option',
    } satisfies Record<StepRole, string>,
    kinds: {
      click: (l) => `${l} angeklickt`,
      focus: (l) => `In das Feld ${l} gewechselt`,
      change: (l) => `Das Feld ${l} geändert`,
      submit: (l) => `Das Formular ${l} abgeschickt`,
      load: (l) => `Die Seite ${l} geladen`,
      navigate: (l) => `Zu ${l} gewechselt`,
      history: (l) => `Zurück oder vor zu ${l}`,
      open: () => 'Das Feedback-Widget geöffnet',
    } satisfies Record<StepKind, Sentence>,
  },
} satisfies Record<Lang, unknown>;

/** The words around steps and the replay link, per language (the mail speaks the owner's). */
export const stepTexts = (lang: Lang = 'en') => texts[lang];

/** Sentences that already say "the field": their target is named without its role word. */
const fieldKinds: ReadonlySet<StepKind> = new Set(['focus', 'change']);

/** Navigations name an address, not a thing on the page: no quotes around it. */
const addressKinds: ReadonlySet<StepKind> = new Set(['load', 'navigate', 'history']);

/** "12 s", "3 min 5 s", "2 h 10 min": how long before the report. */
export function agoText(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  if (s < 3600) return s % 60 ? `${Math.floor(s / 60)} min ${s % 60} s` : `${s / 60} min`;
  const m = Math.floor(s / 60);
  return m % 60 ? `${Math.floor(m / 60)} h ${m % 60} min` : `${m / 60} h`;
}

/**
 * The steps as sentences, oldest first, without numbers (an ordered list numbers them; `numbered` writes
 * them for plain text and Markdown). The report's moment is when the visitor sent it on their own clock
 * (`sentAt`, the steps' clock), or the issue's `createdAt` for reports of older widgets.
 */
export function stepSentences(
  issue: { steps: Step[]; createdAt: string; sentAt?: number | null },
  label: StepLabel,
  lang: Lang = 'en',
): string[] {
  const t = texts[lang];
  const reportedAt = issue.sentAt ?? Date.parse(issue.createdAt);
  return issue.steps.map((step) => {
    // One line per step, whatever the page's text held (a list item, a Markdown line, a mail line).
    const line = step.label.replace(/\s*[\r\n]+\s*/g, ' ').trim();
    const visitor = (text: string) =>
      'code' in label
        ? label.code(text)
        : addressKinds.has(step.kind)
          ? label.text(text)
          : t.quote(label.text(text));
    // A target the widget named by role (`button "Pay"`): the role in the reader's language, the page's
    // name quoted; a field's sentences already say "the field", whatever control it is.
    const target = stepTarget({ kind: step.kind, label: line });
    const shown = !target
      ? visitor(line)
      : fieldKinds.has(step.kind)
        ? visitor(target.name)
        : `${t.roles[target.role]} ${visitor(target.name)}`;
    const sentence = t.kinds[step.kind]?.(shown) ?? shown;
    return Number.isFinite(reportedAt) ? `${sentence} ${t.before(agoText(reportedAt - step.t))}` : sentence;
  });
}

/** "1. …", "2. …": the list as plain text and as a Markdown ordered list. */
export const numbered = (sentences: string[]) => sentences.map((s, i) => `${i + 1}. ${s}`);

/** The note after a replay's link: what it covers, how long the link works, and an early stop. */
export function replayNote(
  replay: { start: number; end: number; stopped?: string },
  days: number,
  lang: Lang = 'en',
): string {
  const t = texts[lang];
  const seconds = Math.max(0, Math.round((replay.end - replay.start) / 1000));
  return [t.replayNote(seconds, days), replay.stopped ? t.stopped : ''].filter(Boolean).join(' ');
}
