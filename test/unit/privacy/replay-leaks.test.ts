// @vitest-environment happy-dom
// @vitest-environment-options {"settings": {"enableIframePageLoading": true}}
import { gzipSync } from 'node:zlib';
import { record } from '@rrweb/record';
import { describe, expect, it } from 'vitest';
import { replayLeaks, replayLeaksInGzip } from '../../../functions/issues/redact-report';
import { replayOptions } from '../../../widget/src/activity/replay-options';

// happy-dom names DOMTokenList without defining it, and rrweb's polyfill reads its prototype.
const win = window as unknown as Record<string, unknown>;
if ('DOMTokenList' in win && !win.DOMTokenList) delete win.DOMTokenList;

/** Records the page with rrweb while `act` types into it, as the widget's recorder does. */
async function recordTyping(options: Record<string, unknown>, act: () => void): Promise<unknown[]> {
  const events: unknown[] = [];
  const stop = record({ ...options, emit: (e) => events.push(e) });
  await new Promise((r) => setTimeout(r, 20));
  act();
  await new Promise((r) => setTimeout(r, 50));
  stop?.();
  return events;
}

const page = () => {
  document.body.innerHTML = `
    <form>
      <label>Email <input id="email" type="email" value="preset@example.com"></label>
      <label>Note <textarea id="note"></textarea></label>
      <label>Plan <select id="plan"><option>basic</option><option>pro</option></select></label>
      <label><input id="agree" type="checkbox" value="yes"> Agree</label>
      <input type="hidden" name="csrf" value="csrf-9f8e7d6c">
      <button type="submit" value="go">Send</button>
    </form>`;
};

function type(id: string, text: string) {
  const el = document.getElementById(id) as HTMLInputElement;
  el.value = text;
  el.dispatchEvent(new Event('input', { bubbles: true }));
}

describe('replayLeaks, the intake check of a recording', () => {
  it('passes what our recorder records: typed text, a preset value and a choice all masked', async () => {
    page();
    const events = await recordTyping(replayOptions(false), () => {
      type('email', 'jane@example.com');
      type('note', 'my card is 4242');
      (document.getElementById('agree') as HTMLInputElement).click();
    });
    const json = JSON.stringify(events);
    expect(json).toContain('"source":5'); // the typing was recorded, as asterisks
    expect(json).not.toContain('jane@example.com');
    // A hidden input's value (what the page keeps for itself) is masked too.
    expect(json).not.toContain('csrf-9f8e7d6c');
    expect(json).toContain(`"${'*'.repeat('csrf-9f8e7d6c'.length)}"`);
    expect(replayLeaks(events)).toBeNull();
    expect(await replayLeaksInGzip(gzipSync(json))).toBeNull();
  });

  it('refuses a recording made without masking inputs: the typed text, and the preset values', async () => {
    document.body.innerHTML = '<label>Note <textarea id="note"></textarea></label>';
    const typed = await recordTyping({ ...replayOptions(false), maskInputOptions: { password: true } }, () =>
      type('note', 'my card is 4242'),
    );
    expect(replayLeaks(typed)).toMatch(/^an input event \(event \d+\) carries typed text \(node \d+\)$/);
    expect(await replayLeaksInGzip(gzipSync(JSON.stringify(typed)))).toMatch(/carries typed text/);

    page();
    const preset = await recordTyping(
      { ...replayOptions(false), maskInputOptions: { password: true } },
      () => {},
    );
    expect(replayLeaks(preset)).toMatch(/^full snapshot \(event \d+\) holds the unmasked value of a/);
  });

  it("refuses a full snapshot holding a field's value, and a value attribute changed to one", () => {
    const snapshot = (attributes: Record<string, string>) => [
      {
        type: 2,
        timestamp: 1,
        data: {
          node: {
            type: 0,
            id: 1,
            childNodes: [{ type: 2, id: 2, tagName: 'input', attributes, childNodes: [] }],
          },
        },
      },
    ];
    expect(replayLeaks(snapshot({ type: 'password', value: '********' }))).toBeNull();
    expect(replayLeaks(snapshot({ type: 'password', value: 'hunter22' }))).toMatch(
      /type password \(node 2\)/,
    );
    expect(replayLeaks(snapshot({ value: 'typed' }))).toMatch(/type text/);
    expect(replayLeaks(snapshot({ type: 'hidden', value: 'csrf-9f8e7d6c' }))).toMatch(/type hidden/);
    expect(replayLeaks(snapshot({ type: 'Submit', value: 'Pay now' }))).toBeNull();
    // A password field turned into a text field (the "show password" eye) stays a password to rrweb.
    expect(replayLeaks(snapshot({ type: 'text', 'data-rr-is-password': 'true', value: 'x' }))).toMatch(
      /type password/,
    );
    const changed = [
      ...snapshot({ type: 'tel', value: '***' }),
      {
        type: 3,
        timestamp: 2,
        data: {
          source: 0,
          adds: [],
          removes: [],
          texts: [],
          attributes: [{ id: 2, attributes: { value: '0170 1234567' } }],
        },
      },
    ];
    expect(replayLeaks(changed)).toMatch(/changed value attribute \(event 1\) is unmasked \(node 2\)/);
    // The reason never repeats the value.
    expect(replayLeaks(changed)).not.toContain('1234567');
  });

  it('refuses an input event for a field it never saw declared, unless the text is masked', () => {
    expect(replayLeaks([{ type: 3, timestamp: 1, data: { source: 5, id: 9, text: '****' } }])).toBeNull();
    expect(replayLeaks([{ type: 3, timestamp: 1, data: { source: 5, id: 9, text: 'secret' } }])).toMatch(
      /input event \(event 0\) carries typed text \(node 9\)/,
    );
    // rrweb sends `isChecked` on every Input event, a text field's too: it exempts nothing undeclared.
    const typed = { source: 5, id: 9, text: 'secret', isChecked: false };
    expect(replayLeaks([{ type: 3, timestamp: 1, data: typed }])).toMatch(/carries typed text \(node 9\)/);
  });

  it('ignores hostile shapes instead of throwing, and walks a very deep tree', () => {
    expect(replayLeaks([null, 1, 'x', { type: 2 }, { type: 3, data: { source: 0, adds: 'no' } }])).toBeNull();
    let node: Record<string, unknown> = {
      type: 2,
      id: 0,
      tagName: 'textarea',
      attributes: { value: 'deep' },
    };
    for (let i = 1; i < 100_000; i++)
      node = { type: 2, id: i, tagName: 'div', attributes: {}, childNodes: [node] };
    expect(replayLeaks([{ type: 2, data: { node } }])).toMatch(/textarea \(node 0\)/);
  });

  it('refuses bytes that are not gzip, not JSON or not an array, and stops unpacking a zip bomb', async () => {
    expect(await replayLeaksInGzip(new TextEncoder().encode('plain'))).toBe('the recording is not gzip');
    expect(await replayLeaksInGzip(gzipSync('{'))).toBe('the recording is not JSON');
    expect(await replayLeaksInGzip(gzipSync('{}'))).toBe('the recording is not an array of events');
    // 64 MB of spaces pack into about 64 KB.
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, ' '), { level: 9 });
    expect(bomb.length).toBeLessThan(100_000);
    expect(await replayLeaksInGzip(bomb)).toBe(
      `the recording unpacks to more than ${32 * 1024 * 1024} bytes`,
    );
  });
});

describe('replayLeaks in a strict project: all text masked', () => {
  // happy-dom gives rrweb no text (its text getter reads nothing there), so these are rrweb's shapes written
  // out; a real Chromium recording of a strict project passes through the intake in test/e2e/report.test.ts.
  const snapshotOf = (words: string) => ({
    type: 2,
    data: {
      node: {
        type: 0,
        id: 1,
        childNodes: [
          {
            type: 2,
            id: 2,
            tagName: 'h1',
            attributes: {},
            childNodes: [{ type: 3, id: 3, textContent: words }],
          },
          {
            type: 2,
            id: 4,
            tagName: 'script',
            attributes: {},
            childNodes: [{ type: 3, id: 5, textContent: 'SCRIPT_PLACEHOLDER' }],
          },
        ],
      },
    },
  });

  it('passes masked text and the script placeholder; refuses words, and passes them when not strict', () => {
    expect(replayLeaks([snapshotOf('***** *** ***\n  ')], { maskedText: true })).toBeNull();
    expect(replayLeaks([snapshotOf('')], { maskedText: true })).toBeNull();
    expect(replayLeaks([snapshotOf('Order for Ada')], { maskedText: true })).toMatch(
      /full snapshot \(event 0\) holds unmasked text \(node 3\)/,
    );
    expect(replayLeaks([snapshotOf('Order for Ada')])).toBeNull();
  });

  it('refuses unmasked text added later or changed, and lets a style sheet change its CSS', () => {
    const snapshot = {
      type: 2,
      data: {
        node: {
          type: 0,
          id: 1,
          childNodes: [
            {
              type: 2,
              id: 2,
              tagName: 'style',
              attributes: {},
              childNodes: [{ type: 3, id: 3, textContent: 'p{}', isStyle: true }],
            },
            {
              type: 2,
              id: 4,
              tagName: 'p',
              attributes: {},
              childNodes: [{ type: 3, id: 5, textContent: '** ***' }],
            },
          ],
        },
      },
    };
    const mutation = (data: Record<string, unknown>) => ({
      type: 3,
      data: { source: 0, texts: [], attributes: [], removes: [], adds: [], ...data },
    });
    const strict = { maskedText: true };
    expect(
      replayLeaks([snapshot, mutation({ texts: [{ id: 3, value: 'p{color:red}' }] })], strict),
    ).toBeNull();
    expect(replayLeaks([snapshot, mutation({ texts: [{ id: 5, value: '*** **' }] })], strict)).toBeNull();
    expect(replayLeaks([snapshot, mutation({ texts: [{ id: 5, value: 'Ada Lovelace' }] })], strict)).toMatch(
      /changed text \(event 1\) is unmasked \(node 5\)/,
    );
    const added = { parentId: 4, nextId: null, node: { type: 3, id: 6, textContent: 'IBAN DE89' } };
    expect(replayLeaks([snapshot, mutation({ adds: [added] })], strict)).toMatch(
      /added node \(event 1\) holds unmasked text \(node 6\)/,
    );
    const comment = { parentId: 4, nextId: null, node: { type: 5, id: 7, textContent: 'user ada' } };
    expect(replayLeaks([snapshot, mutation({ adds: [comment] })], strict)).toMatch(
      /unmasked text \(node 7\)/,
    );
  });
});
