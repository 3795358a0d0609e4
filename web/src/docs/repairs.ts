/**
 * Small DOM repairs of what Swagger UI renders, for WCAG 2.2 AA (axe-core clean, issue 20's bar): Swagger UI
 * has no options for these, so they run after each of its renders (reference.ts observes the container).
 * Each repair only sets an attribute that is missing or drops one that is there, so a second run changes
 * nothing; Swagger UI's React writes an attribute again only when its own value for it changes.
 */
function setMissing(element: Element, name: string, value: string): void {
  if (!element.hasAttribute(name)) element.setAttribute(name, value);
}

export function repairAccessibility(root: HTMLElement): void {
  // With deep linking the path inside each operation's button is also a link: a control inside a control
  // (nested-interactive; out of the tab order it still is one). The button opens the operation and sets
  // the same `#/<tag>/<operationId>` address, so the link loses its href and becomes plain text.
  for (const link of root.querySelectorAll('.opblock-summary-control a[href]')) link.removeAttribute('href');
  // The servers select sits in an empty <label>; its visible title is a separate element.
  for (const select of root.querySelectorAll('select#servers')) setMissing(select, 'aria-label', 'Servers');
  // Parameter controls (enum selects, and the inputs of "Try it out") show the parameter's name beside
  // them in another cell, with no label: name them by it.
  for (const row of root.querySelectorAll('tr[data-param-name]')) {
    const name = row.getAttribute('data-param-name') ?? '';
    const where = row.getAttribute('data-param-in');
    for (const control of row.querySelectorAll('select, input, textarea')) {
      setMissing(control, 'aria-label', where ? `${name} (${where})` : name);
    }
  }
  // Authorize dialog: the close button is an icon without a name, and the dialog is not announced as one.
  for (const close of root.querySelectorAll('.modal-ux .close-modal'))
    setMissing(close, 'aria-label', 'Close');
  for (const dialog of root.querySelectorAll('.modal-ux')) {
    setMissing(dialog, 'role', 'dialog');
    setMissing(dialog, 'aria-modal', 'true');
    const title = dialog.querySelector('.modal-ux-header h3')?.textContent;
    if (title) setMissing(dialog, 'aria-label', title);
  }
  // The token field has a visible label ("Value:") that its aria-label (its own id) overrides.
  for (const input of root.querySelectorAll('input[id][aria-label]')) {
    if (
      input.getAttribute('aria-label') === input.id &&
      root.querySelector(`label[for="${CSS.escape(input.id)}"]`)
    ) {
      input.removeAttribute('aria-label');
    }
  }
  // Buttons whose aria-label hides their visible text ("Authorize" named "Apply credentials"): WCAG 2.5.3
  // wants the visible words in the name, so the text names them.
  for (const button of root.querySelectorAll('button[aria-label]')) {
    const text = button.textContent?.trim().toLowerCase();
    if (text && !button.getAttribute('aria-label')?.toLowerCase().includes(text)) {
      button.removeAttribute('aria-label');
    }
  }
  // Example and response bodies scroll sideways: keyboard users must be able to reach them to scroll.
  for (const block of root.querySelectorAll('pre.microlight')) setMissing(block, 'tabindex', '0');
}
