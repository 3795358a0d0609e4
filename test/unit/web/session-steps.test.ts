// @vitest-environment happy-dom
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { type Step, stepRoles, stepTarget } from '#contracts/intake';
import { replayTexts } from '../../../web/src/i18n/replay';
import { describe as label } from '../../../widget/src/activity/steps';

const click = (l: string, kind: Step['kind'] = 'click') => ({ kind, label: l });

/** What the widget labels, on a page, for each kind of target it names by a role word. */
function widgetLabels(): Record<string, string> {
  document.body.innerHTML = `<a id="a" href="/x">Contact</a><button id="b">Pay</button>
<label for="e">Email</label><input id="e"><select id="s" aria-label="Country"></select>
<details><summary id="m">More</summary></details><form id="f" aria-label="Payment"></form>
<div id="r" role="menuitem">Settings</div><div id="d">Hello</div>`;
  const at = (id: string) => label(document.getElementById(id)!);
  return { a: at('a'), b: at('b'), e: at('e'), s: at('s'), m: at('m'), f: at('f'), r: at('r'), d: at('d') };
}

describe("a step's role word in the dashboard's language", () => {
  it("recognises every role word the widget writes, and the page's name after it", () => {
    const l = widgetLabels();
    expect(Object.values(l).map((x) => stepTarget(click(x)))).toEqual([
      { role: 'link', name: 'Contact' },
      { role: 'button', name: 'Pay' },
      { role: 'field', name: 'Email' },
      { role: 'list', name: 'Country' },
      { role: 'summary', name: 'More' },
      { role: 'form', name: 'Payment' },
      { role: 'menuitem', name: 'Settings' },
      null, // `div "Hello"`: a tag name is markup, shown as it is
    ]);
  });

  it('leaves addresses, selectors and unknown words as they are; keeps quotes inside the name', () => {
    expect(stepTarget(click('button "/cart"', 'navigate'))).toBeNull();
    expect(stepTarget(click('div#plain'))).toBeNull();
    expect(stepTarget(click('buttons "Pay"'))).toBeNull();
    expect(stepTarget(click('button "Say "hi""', 'submit'))).toEqual({ role: 'button', name: 'Say "hi"' });
    expect(stepTarget(click('field "Email"', 'change'))).toEqual({ role: 'field', name: 'Email' });
  });

  it('reads in German with German words and quotes, and in English as the widget wrote it', async () => {
    for (const role of stepRoles) {
      expect(replayTexts.en.roles[role]).toBeTruthy();
      expect(replayTexts.de.roles[role]).toBeTruthy();
    }
    const i18n = i18next.createInstance();
    await i18n.init({
      lng: 'de',
      resources: {
        en: { translation: { replay: replayTexts.en } },
        de: { translation: { replay: replayTexts.de } },
      },
      interpolation: { escapeValue: false },
    });
    const shown = (lng: string, l: string) => {
      const target = stepTarget(click(l))!;
      return i18n.t('replay.target', {
        lng,
        role: i18n.t(`replay.roles.${target.role}`, { lng }),
        name: target.name,
      });
    };
    expect(shown('de', 'button "Pay"')).toBe('Schaltfläche „Pay“');
    expect(shown('de', 'field "E-Mail"')).toBe('Feld „E-Mail“');
    expect(shown('de', 'link "Contact"')).toBe('Link „Contact“');
    expect(shown('en', 'button "Pay"')).toBe('button "Pay"');
  });
});
