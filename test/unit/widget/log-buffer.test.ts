// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest';
import { reportLimits } from '#contracts/intake';
import { LOGS_MAX, MESSAGE_MAX, startLogBuffer } from '../../../widget/src/capture/log-buffer';

/** A fake XMLHttpRequest: `open`/`send` on the prototype, as the browser's, finishing with `status`. */
class FakeXhr {
  status = 0;
  listeners: ((e: Event) => void)[] = [];
  sent: unknown[] = [];
  open(..._args: unknown[]) {
    return 'opened';
  }
  send(...args: unknown[]) {
    this.sent = args;
  }
  addEventListener(_type: string, fn: (e: Event) => void) {
    this.listeners.push(fn);
  }
  finish(status: number) {
    this.status = status;
    for (const fn of this.listeners) fn(new Event('loadend'));
  }
}

type Handler = (e: Event) => void;

/** A window with fake console, fetch and XHR, and the real ErrorEvent. */
function fakeWindow(fetchImpl: (...a: unknown[]) => Promise<Response>) {
  const handlers = new Map<string, Handler>();
  const originals = { error: vi.fn((..._a: unknown[]) => 'e'), warn: vi.fn((..._a: unknown[]) => 'w') };
  const win = {
    console: { ...originals, log: vi.fn() },
    fetch: fetchImpl,
    XMLHttpRequest: FakeXhr,
    addEventListener: (type: string, fn: Handler) => handlers.set(type, fn),
  };
  const buffer = startLogBuffer(win as unknown as Window & typeof globalThis);
  return { win, originals, buffer, fire: (type: string, e: Event) => handlers.get(type)?.(e) };
}

const flush = () => new Promise((r) => setTimeout(r, 0));

describe('log buffer', () => {
  it('uses the intake limits', () => {
    expect(LOGS_MAX).toBe(reportLimits.logsMax);
    expect(MESSAGE_MAX).toBe(reportLimits.logMessageMax);
  });

  it('records console errors and warnings and still calls the original with the same this and arguments', () => {
    const { win, originals, buffer } = fakeWindow(async () => new Response());
    const err = new TypeError('x is undefined');
    expect(win.console.error('boom', 42, { a: 1 }, err)).toBe('e');
    expect(win.console.warn('careful')).toBe('w');
    win.console.log('not recorded');
    expect(originals.error).toHaveBeenCalledWith('boom', 42, { a: 1 }, err);
    expect(originals.error.mock.contexts[0]).toBe(win.console);
    expect(buffer.map(({ level, kind, msg }) => ({ level, kind, msg }))).toEqual([
      { level: 'error', kind: 'console', msg: 'boom 42 {"a":1} TypeError: x is undefined' },
      { level: 'warn', kind: 'console', msg: 'careful' },
    ]);
    expect(typeof buffer[0]!.t).toBe('number');
  });

  it('survives cyclic objects and cuts long messages', () => {
    const { win, buffer } = fakeWindow(async () => new Response());
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    win.console.error(cyclic, 'x'.repeat(5000));
    expect(buffer[0]!.msg.startsWith('[object Object] xxx')).toBe(true);
    expect(buffer[0]!.msg.length).toBe(MESSAGE_MAX);
  });

  it('keeps the last 50 entries', () => {
    const { win, buffer } = fakeWindow(async () => new Response());
    for (let i = 0; i < 70; i++) win.console.warn(`w${i}`);
    expect(buffer).toHaveLength(50);
    expect(buffer[0]!.msg).toBe('w20');
    expect(buffer[49]!.msg).toBe('w69');
  });

  it('records uncaught errors and unhandled rejections, not failed resource loads', () => {
    const { buffer, fire } = fakeWindow(async () => new Response());
    fire(
      'error',
      new ErrorEvent('error', { message: 'Uncaught Boom', filename: 'https://a.test/app.js?v=3', lineno: 7 }),
    );
    fire('error', new Event('error'));
    const rejection = new Event('unhandledrejection') as Event & { reason: unknown };
    rejection.reason = new Error('nope');
    fire('unhandledrejection', rejection);
    expect(buffer.map((e) => [e.kind, e.msg])).toEqual([
      ['exception', 'Uncaught Boom https://a.test/app.js:7'],
      ['rejection', 'Error: nope'],
    ]);
  });

  it('records failed fetches without query or body, and hands the page the original promise', async () => {
    const answers = [500, 404, 200];
    const fetchImpl = vi.fn(async () => new Response('', { status: answers.shift() ?? 200 }));
    const { win, buffer } = fakeWindow(fetchImpl);
    const p = win.fetch('/api/cart?token=secret#x', { method: 'post', body: 'card=4242' });
    expect(await p).toBeInstanceOf(Response);
    await win.fetch(new Request('https://shop.test/items?id=1'));
    await win.fetch('https://shop.test/ok');
    await flush();
    expect(buffer.map((e) => e.msg)).toEqual(['POST /api/cart 500', 'GET https://shop.test/items 404']);
    expect(JSON.stringify(buffer)).not.toMatch(/secret|4242/);
  });

  it('records network failures as status 0 and leaves the rejection to the page', async () => {
    const { win, buffer } = fakeWindow(() => Promise.reject(new TypeError('Failed to fetch')));
    await expect(win.fetch('https://down.test/x?q=1')).rejects.toThrow('Failed to fetch');
    await flush();
    expect(buffer.map((e) => e.msg)).toEqual(['GET https://down.test/x 0']);
  });

  it("leaves out the widget's own failed fetches while it captures the page", async () => {
    const { win, buffer } = fakeWindow(() => Promise.reject(new TypeError('Failed to fetch')));
    const snag: { _m?: 1 } = { _m: 1 };
    (win as { Snag?: object }).Snag = snag;
    await expect(win.fetch('https://cdn.other.test/a.png')).rejects.toThrow();
    await flush();
    expect(buffer).toEqual([]);
    delete snag._m;
    await expect(win.fetch('https://down.test/x')).rejects.toThrow();
    await flush();
    expect(buffer.map((e) => e.msg)).toEqual(['GET https://down.test/x 0']);
  });

  it('passes synchronous fetch exceptions through unchanged', () => {
    const { win } = fakeWindow(() => {
      throw new TypeError('bad init');
    });
    expect(() => win.fetch('x')).toThrow('bad init');
  });

  it('records failed XHRs, keeping open() arity, this and return values', () => {
    const { buffer } = fakeWindow(async () => new Response());
    const open = vi.spyOn(FakeXhr.prototype, 'open');
    const a = new FakeXhr();
    expect(a.open('GET', '/search?q=private')).toBe('opened');
    expect(open.mock.calls[0]).toEqual(['GET', '/search?q=private']); // not (…, undefined): that would be sync
    a.send('body');
    expect(a.sent).toEqual(['body']);
    a.finish(503);
    const b = new FakeXhr();
    b.open('post', '/save');
    b.send();
    b.finish(0);
    const c = new FakeXhr();
    c.open('GET', '/fine');
    c.send();
    c.finish(200);
    expect(buffer.map((e) => e.msg)).toEqual(['GET /search 503', 'POST /save 0']);
    open.mockRestore();
  });
});
