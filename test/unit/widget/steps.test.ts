// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { reportLimits } from '#contracts/intake';
import { startActivity } from '../../../widget/src/activity/index';
import { createStepsRecorder, describe as label } from '../../../widget/src/activity/steps';

const ORIGIN = 1_700_000_000_000;

beforeEach(() => {
  document.body.innerHTML = `
<nav><a href="/contact" id="contact">Contact us</a></nav>
<button id="buy"><svg></svg><span>Add to   cart</span></button>
<button id="icon" aria-label="Close dialog"><svg></svg></button>
<div id="plain" class="card featured extra"></div>
<i class="tile big extra"></i>
<form id="checkout" aria-label="Checkout">
  <label for="email">Your email</label><input id="email" name="email" value="jane@example.com">
  <input id="pw" type="password" name="password" placeholder="Password">
  <label>Card number <input id="cc" autocomplete="cc-number"></label>
  <textarea id="note" name="note">my secret note</textarea>
  <select id="country" name="country"><option>Germany</option><option selected>Austria</option></select>
  <input id="go" type="submit" value="Pay now">
</form>
<p id="acct" data-snag-mask>Account 12345</p>
<button id="pay"><span data-snag-mask>Pay 4242</span></button>
<div id="long">${'word '.repeat(100)}</div>
<button id="mail">Write to jane@example.com</button>
<snag-launcher id="launcher"></snag-launcher>`;
});

const byId = (id: string) => document.getElementById(id)!;
const at = (target: EventTarget, type: string, timeStamp = 100) => ({ type, timeStamp, target });

describe('step labels', () => {
  it('name a click target by its accessible name or text, else a short selector', () => {
    expect(label(byId('buy'))).toBe('button "Add to cart"');
    expect(label(byId('icon'))).toBe('button "Close dialog"');
    expect(label(byId('contact'))).toBe('link "Contact us"');
    expect(label(byId('plain'))).toBe('div#plain');
    expect(label(document.querySelector('.tile')!)).toBe('i.tile.big');
    expect(label(byId('checkout'))).toBe('form "Checkout"');
  });

  it('name a field by its label, placeholder or name, never by what is in it', () => {
    expect(label(byId('email'))).toBe('field "Your email"');
    expect(label(byId('pw'))).toBe('field "Password"');
    expect(label(byId('cc'))).toBe('field "Card number"');
    expect(label(byId('note'))).toBe('field "note"');
    expect(label(byId('country'))).toBe('list "country"');
    expect(label(byId('go'))).toBe('field "Pay now"'); // A submit button's caption is markup.
  });

  it('never read masked text: a masked element or one holding masked parts falls back to its selector', () => {
    expect(label(byId('acct'))).toBe('p#acct');
    expect(label(byId('pay'))).toBe('button#pay');
  });

  it('cut long texts', () => {
    expect(label(byId('long')).length).toBeLessThanOrEqual(90);
    expect(label(byId('long'))).toMatch(/…"$/);
  });
});

describe('the steps recorder', () => {
  it('starts with the load, and records clicks, fields, submits and the widget opening with epoch times', () => {
    const steps = createStepsRecorder('https://shop.test/cart?coupon=XYZ#top', ORIGIN);
    // A click on the span inside the button is a click on the button.
    steps.take(at(byId('buy').querySelector('span')!, 'click', 1000));
    steps.take(at(byId('email'), 'focusin', 2000));
    steps.take(at(byId('email'), 'change', 2500));
    steps.take(at(byId('contact'), 'focusin', 2600)); // Focus on a link is not an action.
    steps.take(at(byId('checkout'), 'submit', 3000));
    steps.take({ type: 'open', timeStamp: 4000 });
    expect(steps.list()).toEqual([
      { t: ORIGIN, kind: 'load', label: 'https://shop.test/cart' },
      { t: ORIGIN + 1000, kind: 'click', label: 'button "Add to cart"' },
      { t: ORIGIN + 2000, kind: 'focus', label: 'field "Your email"' },
      { t: ORIGIN + 2500, kind: 'change', label: 'field "Your email"' },
      { t: ORIGIN + 3000, kind: 'submit', label: 'form "Checkout"' },
      { t: ORIGIN + 4000, kind: 'open', label: '' },
    ]);
  });

  it('never carries what was typed, selected or masked', () => {
    const steps = createStepsRecorder('https://shop.test/', ORIGIN);
    for (const id of ['email', 'pw', 'cc', 'note', 'country']) {
      const el = byId(id) as HTMLInputElement;
      if (el.tagName !== 'SELECT') el.value = id === 'cc' ? '4242 4242 4242 4242' : `typed-${id}-hunter2`;
      steps.take(at(el, 'focusin'));
      steps.take(at(el, 'change'));
    }
    steps.take(at(byId('acct'), 'click'));
    steps.take(at(byId('pay'), 'click'));
    const text = JSON.stringify(steps.list());
    for (const secret of ['hunter2', '4242', 'jane@example.com', 'my secret note', 'Austria', '12345'])
      expect(text).not.toContain(secret);
  });

  it('redacts and cuts labels', () => {
    const steps = createStepsRecorder('https://shop.test/', ORIGIN);
    steps.take(at(byId('mail'), 'click'));
    expect(steps.list()[1]!.label).toBe('button "Write to [redacted:email]"');
    byId('plain').setAttribute('aria-label', 'x'.repeat(500));
    steps.take(at(byId('plain'), 'click'));
    expect(steps.list()[2]!.label.length).toBeLessThanOrEqual(reportLimits.stepLabelMax);
  });

  it('leaves out clicks on the widget itself', () => {
    const steps = createStepsRecorder('https://shop.test/', ORIGIN);
    steps.take(at(byId('launcher'), 'click'));
    expect(steps.list().map((s) => s.kind)).toEqual(['load']);
  });

  it('records a navigation only when the address changes, without query or fragment', () => {
    const steps = createStepsRecorder('https://shop.test/a', ORIGIN);
    steps.navigated('https://shop.test/a?tab=2#x', 10);
    steps.navigated('https://shop.test/b?secret=1', 20);
    steps.navigated('https://shop.test/b#y', 30);
    expect(steps.list().slice(1)).toEqual([
      { t: ORIGIN + 20, kind: 'navigate', label: 'https://shop.test/b' },
    ]);
  });

  it('keeps the last 50', () => {
    const steps = createStepsRecorder('https://shop.test/', ORIGIN);
    for (let i = 0; i < 60; i++) steps.take(at(byId('buy'), 'click', i));
    const list = steps.list();
    expect(list).toHaveLength(reportLimits.stepsMax);
    expect(list[0]!.t).toBe(ORIGIN + 10);
    expect(list.at(-1)!.t).toBe(ORIGIN + 59);
  });
});

describe('the activity chunk on a page', () => {
  const snag = () => window.Snag as NonNullable<Window['Snag']>;
  afterEach(() => {
    delete window.Snag;
  });

  it("takes the loader's early events, then the page's own pushState, replaceState and back", () => {
    history.replaceState(null, '', '/shop');
    const early: Event[] = [];
    const click = new MouseEvent('click', { bubbles: true });
    byId('buy').dispatchEvent(click);
    early.push(click);
    window.Snag = { _e: early, _c: undefined };
    startActivity();
    const a = snag()._a!;
    expect(a.replay).toBeUndefined();

    history.pushState({ page: 2 }, '', '/shop/basket?item=9');
    history.replaceState({ page: 2 }, '', '/shop/basket#details'); // Same page.
    history.pushState({ page: 3 }, '', '/shop/checkout');
    history.back();
    snag()._e!.push({ type: 'popstate', timeStamp: performance.now() } as unknown as Event);
    snag()._e!.push({ type: 'open', timeStamp: performance.now() });

    const kinds = a.steps().map((s) => [s.kind, s.label.replace(location.origin, '')]);
    expect(kinds.slice(1)).toEqual([
      ['click', 'button "Add to cart"'],
      ['navigate', '/shop/basket'],
      ['navigate', '/shop/checkout'],
      ['history', expect.stringMatching(/^\/shop/)],
      ['open', ''],
    ]);
    expect(kinds[0]![0]).toBe('load');
  });

  it('starts the session recorder only where the configuration has replay', () => {
    const fake = { has: () => true, pause() {}, resume() {}, take: async () => null };
    const seen: unknown[] = [];
    const recorder = (options: { maskText: boolean }) => {
      seen.push(options);
      return fake;
    };
    window.Snag = { _e: [], _c: { replay: { maskText: true } } as NonNullable<Window['Snag']>['_c'] };
    startActivity(recorder);
    expect(snag()._a!.replay).toBe(fake);
    expect(seen).toEqual([{ maskText: true }]);

    window.Snag = { _e: [], _c: {} as NonNullable<Window['Snag']>['_c'] };
    startActivity(recorder);
    expect(snag()._a!.replay).toBeUndefined();
    expect(seen).toHaveLength(1);
  });

  it('keeps the steps when the recorder cannot start', () => {
    window.Snag = { _e: [], _c: { replay: { maskText: false } } as NonNullable<Window['Snag']>['_c'] };
    const warn = console.warn;
    console.warn = () => {};
    try {
      startActivity(() => {
        throw new Error('no MutationObserver here');
      });
    } finally {
      console.warn = warn;
    }
    expect(snag()._a!.replay).toBeUndefined();
    expect(snag()._a!.steps()[0]!.kind).toBe('load');
  });

  it('runs once per page', () => {
    window.Snag = { _e: [] };
    startActivity();
    const first = snag()._a;
    startActivity();
    expect(snag()._a).toBe(first);
  });
});
