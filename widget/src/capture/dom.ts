/**
 * DOM helpers the screenshot and the snapshot share: which elements are the widget's own (left out of
 * both), and the tree walk across open shadow roots (closed ones cannot be read by design).
 */

/** The widget's own custom elements (the loader's launcher and the app's panel). */
const WIDGET_TAGS = new Set(['SNAG-LAUNCHER', 'SNAG-PANEL']);

/** A predicate for "leave this element out": the caller's `exclude` list plus the widget's own hosts. */
export function widgetFilter(exclude: readonly Element[]): (el: Element) => boolean {
  const set = new Set(exclude);
  return (el) => set.has(el) || WIDGET_TAGS.has(el.tagName);
}

/** The parent in the flattened tree: a shadow root's host instead of the root itself. */
export function parentOf(node: Node): Node | null {
  const p = node.parentNode;
  return p instanceof ShadowRoot ? p.host : p;
}

/** Every element of `root` and of the open shadow roots inside it, hosts before their shadow content. */
export function allElements(root: Document | ShadowRoot = document): Element[] {
  const out: Element[] = [];
  const visit = (r: Document | ShadowRoot) => {
    for (const el of r.querySelectorAll('*')) {
      out.push(el);
      if (el.shadowRoot) visit(el.shadowRoot);
    }
  };
  visit(root);
  return out;
}
