/**
 * Steps to reproduce (contracts/intake.ts `Step`, docs/replay.md "Recorder"): the visitor's last 50
 * actions on every plan. Clicks name their target (its accessible name, its text, or a short selector);
 * form fields say which field was focused or changed and never what is in it; form submits; navigations
 * (`load`, the page's pushState/replaceState as `navigate`, back and forward as `history`, the address
 * without query or fragment); and `open` when the visitor opened the widget.
 *
 * Labels are cut to `stepLabelMax` and redacted (contracts/redaction.ts, the logs' rules, emails included). Text of a masked
 * element (capture/mask.ts) is never read, and neither is a field's value: the label of an input comes
 * from its label, name or placeholder only.
 */
import { reportLimits, type Step, type StepKind } from '#contracts/intake';
import { redactText } from '#contracts/redaction';
import { isMasked, MASK_SELECTOR } from '../capture/mask';

/** What the recorder is fed: page events (the loader's early queue, then live) and the app's `open`. */
export interface StepEvent {
  type: string;
  /** ms since `performance.timeOrigin`, as an Event's own. */
  timeStamp: number;
  target?: EventTarget | null;
}

/** The widget's own hosts: a click on the launcher is the `open` step, not a click. */
const WIDGET_HOSTS = 'snag-launcher,snag-panel';

/** Targets a click is about: the nearest of these around the clicked node, else the node itself. */
const ACTIONABLE =
  'a[href],button,input,select,textarea,label,summary,[role=button],[role=link],[role=menuitem],[role=tab],[role=checkbox],[role=option],[onclick]';

const FIELDS = 'input,select,textarea,[contenteditable]:not([contenteditable=false])';

/**
 * Readable kinds of targets; an element with one of the ARIA roles of ACTIONABLE says that role; other tags
 * name themselves. The dashboard shows these words in its own language (web/src/issues/session-model.ts
 * `stepRoles`): a new word here needs its translation there.
 */
const roleOf: Record<string, string> = { a: 'link', textarea: 'field', input: 'field', select: 'list' };
const ARIA_ROLES = /^(button|link|menuitem|tab|checkbox|option)$/;

/** A URL without its query string and fragment. */
export const bareUrl = (url: string) => url.split(/[?#]/)[0] ?? '';

const squash = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();

/** `tag#id` or `tag.class.class`: where no name can be found. */
function selectorOf(el: Element): string {
  const tag = el.tagName.toLowerCase();
  if (el.id) return `${tag}#${el.id}`;
  const classes = [...el.classList].slice(0, 2);
  return classes.length ? `${tag}.${classes.join('.')}` : tag;
}

/** The element's accessible name as far as markup tells it; never a field's value or masked text. */
function nameOf(el: Element): string {
  const doc = el.ownerDocument;
  const by = el.getAttribute('aria-labelledby');
  const labelled = by
    ? squash(
        by
          .split(/\s+/)
          .map((id) => doc.getElementById(id))
          .filter((l): l is HTMLElement => !!l && !isMasked(l))
          .map((l) => l.textContent)
          .join(' '),
      )
    : '';
  const own = squash(el.getAttribute('aria-label')) || labelled;
  if (own) return own;
  const field = el.matches(FIELDS);
  if (field) {
    const input = el as HTMLInputElement;
    const label = [...(input.labels ?? [])].filter((l) => !isMasked(l)).map((l) => l.textContent);
    // A button-like input shows its value as its caption: that one is markup, not the visitor's.
    const caption = /^(submit|button|reset)$/.test(input.type) ? input.value : '';
    return (
      squash(label.join(' ')) || caption || squash(el.getAttribute('placeholder') || el.getAttribute('name'))
    );
  }
  // Text of a masked element, or of one holding masked parts, is never read.
  if (isMasked(el) || el.querySelector(MASK_SELECTOR)) return squash(el.getAttribute('title'));
  return squash(
    el.getAttribute('alt') ||
      (el as HTMLElement).innerText ||
      el.textContent ||
      el.querySelector('img[alt]')?.getAttribute('alt') ||
      el.getAttribute('title'),
  );
}

/** `button "Add to cart"`, `field "Email"`, `link "Contact"`, else a short selector. */
export function describe(el: Element): string {
  const name = nameOf(el);
  const tag = el.tagName.toLowerCase();
  if (!name) return selectorOf(el);
  const short = name.length > 80 ? `${name.slice(0, 79)}…` : name;
  const aria = el.getAttribute('role') ?? '';
  return `${roleOf[tag] ?? (ARIA_ROLES.test(aria) ? aria : tag)} "${short}"`;
}

export interface StepsRecorder {
  /** Turns a page event (or the app's `open`) into a step, if it is one. */
  take(e: StepEvent): void;
  /** Adds a navigation to `href` (pushState/replaceState) when the address changed. */
  navigated(href: string, timeStamp: number): void;
  list(): Step[];
}

/**
 * A recorder starting on a page loaded at `loadedHref` (the navigation's own address, at time 0); `origin`
 * turns event times into epoch ms (performance.timeOrigin).
 */
export function createStepsRecorder(loadedHref: string, origin: number): StepsRecorder {
  const steps: Step[] = [];
  let address = bareUrl(loadedHref);
  const add = (kind: StepKind, label: string, timeStamp: number) => {
    steps.push({
      t: Math.round(origin + timeStamp),
      kind,
      label: redactText(label, { emails: true }).slice(0, reportLimits.stepLabelMax),
    });
    if (steps.length > reportLimits.stepsMax) steps.shift();
  };
  add('load', address, 0);

  return {
    take(e) {
      if (e.type === 'open') return add('open', '', e.timeStamp);
      if (e.type === 'popstate') {
        address = bareUrl(location.href);
        return add('history', address, e.timeStamp);
      }
      const node = e.target as Node | null;
      const el = node && (node.nodeType === 1 ? (node as Element) : node.parentElement);
      if (!el || el.closest(WIDGET_HOSTS)) return;
      if (e.type === 'click') return add('click', describe(el.closest(ACTIONABLE) ?? el), e.timeStamp);
      if (e.type === 'submit') return add('submit', describe(el), e.timeStamp);
      // Focus and change only for form fields: focus moving over links and buttons is not an action.
      if ((e.type === 'focusin' || e.type === 'change') && el.matches(FIELDS))
        add(e.type === 'focusin' ? 'focus' : 'change', describe(el), e.timeStamp);
    },
    navigated(href, timeStamp) {
      const next = bareUrl(href);
      if (next === address) return; // Same page, new state or query: not a navigation a person makes.
      address = next;
      add('navigate', next, timeStamp);
    },
    list: () => steps.slice(),
  };
}
