/**
 * Custom field values (SPEC.md: a project's custom fields are a name and a `.class` or `#id` selector):
 * the trimmed text of the first element the selector matches, or the value of a form control, at most
 * `customFieldValueMax` characters. A selector that throws or matches nothing, and a masked element
 * (mask.ts), give an empty value.
 */
import { reportLimits } from '#contracts/intake';
import { isMasked } from './mask';

function fieldText(el: Element): string {
  if (isMasked(el)) return '';
  if (
    el instanceof HTMLInputElement ||
    el instanceof HTMLTextAreaElement ||
    el instanceof HTMLSelectElement
  ) {
    if (el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio')) {
      return el.checked ? el.value : '';
    }
    return el.value;
  }
  // innerText where layout exists (it honours display:none and line breaks), textContent otherwise.
  const text = el instanceof HTMLElement && typeof el.innerText === 'string' ? el.innerText : el.textContent;
  return text ?? '';
}

export function customFieldValues(
  fields: readonly { name: string; selector: string }[],
  doc: Document = document,
): { name: string; value: string }[] {
  return fields.map(({ name, selector }) => {
    let el: Element | null = null;
    try {
      el = doc.querySelector(selector);
    } catch {
      // An invalid selector stored in the project: an empty value, never a broken report.
    }
    const value = el ? fieldText(el).replace(/\s+/g, ' ').trim() : '';
    return { name, value: value.slice(0, reportLimits.customFieldValueMax) };
  });
}
