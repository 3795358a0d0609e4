// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest';
import { customFieldValues } from '../../../widget/src/capture/custom-fields';

beforeEach(() => {
  document.body.innerHTML = `
    <div class="user">  Jane
      Doe </div><span class="user">second</span>
    <input id="plan" value="Business">
    <input id="pw" type="password" value="hunter2">
    <div data-snag-mask><span id="secret">4242 4242</span></div>
    <select id="size"><option>S</option><option selected>M</option></select>
    <p id="long">${'a'.repeat(800)}</p>`;
});

describe('customFieldValues', () => {
  it('reads the first match: trimmed text, or the value of a form control', () => {
    expect(
      customFieldValues([
        { name: 'User', selector: '.user' },
        { name: 'Plan', selector: '#plan' },
        { name: 'Size', selector: '#size' },
      ]),
    ).toEqual([
      { name: 'User', value: 'Jane Doe' },
      { name: 'Plan', value: 'Business' },
      { name: 'Size', value: 'M' },
    ]);
  });

  it('gives empty values for masked elements, no match and invalid selectors', () => {
    expect(
      customFieldValues([
        { name: 'Password', selector: '#pw' },
        { name: 'Card', selector: '#secret' },
        { name: 'Missing', selector: '.nothing' },
        { name: 'Broken', selector: '#' },
        { name: 'Worse', selector: '.a[' },
      ]).map((f) => f.value),
    ).toEqual(['', '', '', '', '']);
  });

  it('cuts values at 500 characters', () => {
    expect(customFieldValues([{ name: 'Long', selector: '#long' }])[0]!.value).toHaveLength(500);
  });
});
