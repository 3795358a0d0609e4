import { describe, expect, it } from 'vitest';
import type { LogEntry, Step } from '#contracts/intake';
import {
  noReplayReason,
  replaySeconds,
  reportMoment,
  secondsBefore,
  seekable,
  sessionItems,
  timelineLog,
  whenBefore,
} from '../../../web/src/issues/session-model';
import { replayAssetUrl, replayPath } from '../../../web/src/replay/data';
import { clock, frameFit, offsetOf, viewportOf } from '../../../web/src/replay/model';
import { allowedUrl, safeCss, sanitizeEvents } from '../../../web/src/replay/sanitize';

const report = Date.parse('2026-11-29T08:00:00.000Z');
const step = (t: number, label: string, kind: Step['kind'] = 'click'): Step => ({
  t: report - t,
  kind,
  label,
});
const log = (t: number, level: LogEntry['level'], kind: LogEntry['kind'], msg: string): LogEntry => ({
  t: report - t,
  level,
  kind,
  msg,
});

describe('the issue timeline (session-model)', () => {
  const issue = {
    date_created: { date: '2026-11-29T08:00:02.000Z' },
    sent_at: null as number | null,
    replay: { name: 'r.gz', size: 10, start: report - 60_000, end: report },
    steps: [step(30_000, 'Save'), step(50_000, '/cart', 'navigate'), step(10_000, 'Email', 'focus')],
    logs: [
      log(12_000, 'error', 'console', 'TypeError: x is undefined'),
      log(20_000, 'warn', 'console', 'deprecated'),
      log(30_000, 'error', 'network', 'POST /api/cart 500'),
      log(25_000, 'warn', 'network', 'GET /slow 0'),
    ],
  };

  it('merges steps, errors, failed requests and the report in time order, steps numbered in their own order', () => {
    const items = sessionItems(issue);
    expect(items.map((i) => [i.kind, report - i.at])).toEqual([
      ['step', 50_000],
      ['step', 30_000],
      ['request', 30_000],
      ['request', 25_000],
      ['error', 12_000],
      ['step', 10_000],
      ['report', 0],
    ]);
    expect(items.filter((i) => i.kind === 'step').map((i) => (i.kind === 'step' ? i.number : 0))).toEqual([
      1, 2, 3,
    ]);
  });

  it('shows console errors and every failed request, not console warnings', () => {
    expect(timelineLog(log(0, 'warn', 'console', 'w'))).toBeNull();
    expect(timelineLog(log(0, 'error', 'exception', 'e'))).toBe('error');
    expect(timelineLog(log(0, 'error', 'rejection', 'e'))).toBe('error');
    expect(timelineLog(log(0, 'warn', 'network', 'GET / 0'))).toBe('request');
  });

  it("anchors on the replay's end or the widget's send time (the visitor's clock), else on the issue's creation", () => {
    expect(reportMoment(issue)).toBe(report);
    // A visitor whose clock is 5 minutes slow: the send time, on that clock, not the server's creation.
    expect(reportMoment({ ...issue, replay: null, sent_at: report - 300_000 })).toBe(report - 300_000);
    // A report of an older widget: the creation (2 s after, on the server's clock) stands in.
    expect(reportMoment({ ...issue, replay: null })).toBe(report + 2000);
    // Without a replay the same steps still make a timeline, the report last.
    const items = sessionItems({ ...issue, replay: null });
    expect(items.at(-1)).toEqual({ kind: 'report', at: report + 2000 });
    expect(items.filter((i) => i.kind === 'step')).toHaveLength(3);
  });

  it('tells whole seconds before the report, never negative', () => {
    expect(secondsBefore(report - 12_400, report)).toBe(12);
    expect(secondsBefore(report - 12_600, report)).toBe(13);
    expect(secondsBefore(report + 3000, report)).toBe(0);
  });

  it('says "a day or more before the report" for a time from before that, such as 1 ms since 1970', () => {
    expect(whenBefore(report - 12_000, report)).toEqual({ key: 'before', count: 12 });
    expect(whenBefore(report - 86_399_000, report)).toEqual({ key: 'before', count: 86_399 });
    expect(whenBefore(report - 86_400_000, report)).toEqual({ key: 'beforeLong' });
    expect(whenBefore(1, report)).toEqual({ key: 'beforeLong' });
    expect(whenBefore(report + 5_000, report)).toEqual({ key: 'atReport' });
  });

  it('seeks only to moments the replay covers (a second of grace at either end)', () => {
    const replay = issue.replay;
    expect(seekable(report - 30_000, replay)).toBe(true);
    expect(seekable(replay.start - 500, replay)).toBe(true);
    expect(seekable(replay.start - 5000, replay)).toBe(false);
    expect(seekable(report + 500, replay)).toBe(true);
    expect(seekable(report - 30_000, null)).toBe(false);
    expect(replaySeconds(replay)).toBe(60);
  });

  it('says why there is no replay: the plan, the project switched off, or the visitor', () => {
    expect(noReplayReason({ replays: false }, true)).toBe('plan');
    expect(noReplayReason(undefined, true)).toBe('plan');
    expect(noReplayReason({ replays: true }, false)).toBe('off');
    expect(noReplayReason({ replays: true }, true)).toBe('leftOut');
  });
});

describe('the player (replay/model)', () => {
  it('reads positions as m:ss', () => {
    expect(clock(0)).toBe('0:00');
    expect(clock(72_400)).toBe('1:12');
    expect(clock(-5)).toBe('0:00');
  });

  it('scales the recorded viewport down to the space, never up', () => {
    expect(frameFit({ width: 1280, height: 720 }, 640)).toEqual({ width: 1280, height: 720, scale: 0.5 });
    expect(frameFit({ width: 390, height: 844 }, 800).scale).toBe(1);
    expect(frameFit({ width: 1280, height: 720 }, 0).scale).toBe(1);
  });

  it("turns a moment into the player's offset within the recording", () => {
    expect(offsetOf(1_000_500, 1_000_000, 60_000)).toBe(500);
    expect(offsetOf(999_000, 1_000_000, 60_000)).toBe(0);
    expect(offsetOf(1_090_000, 1_000_000, 60_000)).toBe(60_000);
  });

  it("takes the viewport from the recording's first meta event", () => {
    expect(viewportOf([{ type: 2 }, { type: 4, data: { href: 'x', width: 390, height: 844 } }])).toEqual({
      width: 390,
      height: 844,
    });
    expect(viewportOf([])).toEqual({ width: 1280, height: 720 });
  });

  it('reads a recording signed in or from a signed link', () => {
    expect(replayPath({ siteId: 's 1', name: 'a.gz' })).toBe('/client/replay/s%201/a.gz');
    expect(replayPath({ token: 'a.b.1.c' })).toBe('/replay/a.b.1.c');
  });
});

describe('a hostile recording (replay/sanitize)', () => {
  const origin = 'https://app.snag.test';
  const el = (
    id: number,
    tagName: string,
    attributes: Record<string, unknown>,
    childNodes: unknown[] = [],
  ) => ({
    type: 2,
    id,
    tagName,
    attributes,
    childNodes,
  });
  const text = (id: number, textContent: string, isStyle?: true) => ({
    type: 3,
    id,
    textContent,
    ...(isStyle ? { isStyle } : {}),
  });
  const snapshot = (...children: unknown[]) => ({
    type: 2,
    timestamp: 1,
    data: {
      node: { type: 0, id: 1, childNodes: [el(2, 'html', {}, children)] },
      initialOffset: { top: 0, left: 0 },
    },
  });
  const nodes = (events: Record<string, unknown>[]) => JSON.stringify(events);

  it('lets only other origins and data: pictures be addressed', () => {
    expect(allowedUrl('https://shop.example/logo.png', origin)).toBe(true);
    expect(allowedUrl('data:image/png;base64,AAAA', origin)).toBe(true);
    expect(allowedUrl('/api/client/website', origin)).toBe(false);
    expect(allowedUrl(`${origin}/api/client/website`, origin)).toBe(false);
    expect(allowedUrl('javascript:alert(1)', origin)).toBe(false);
    expect(allowedUrl('data:text/html,<script>', origin)).toBe(false);
    expect(allowedUrl('//app.snag.test/x', origin)).toBe(false);
  });

  it('keeps CSS addresses only where they may go, and drops imports and escaped urls', () => {
    expect(safeCss('a{background:url(/beacon)}', origin)).toBe('a{background:none}');
    expect(safeCss(`a{background:url("${origin}/x")}`, origin)).toBe('a{background:none}');
    expect(safeCss("a{background:url('https://cdn.example/a.png')}", origin)).toBe(
      'a{background:url("https://cdn.example/a.png")}',
    );
    expect(safeCss('@import "/beacon.css"; a{color:red}', origin)).toBe(' a{color:red}');
    expect(safeCss('a{background:\\75 rl(/beacon)}', origin)).toBe('');
    expect(safeCss('a{background:image-set("/beacon" 1x)}', origin)).not.toContain('image-set');
  });

  it('takes out scripts, handlers, script addresses, srcdoc, refresh, base and frame sources', () => {
    const out = nodes(
      sanitizeEvents(
        [
          snapshot(
            el(3, 'script', { src: '/evil.js' }, [text(4, 'parent.pwned = 1')]),
            el(5, 'img', { src: 'x', onerror: 'parent.pwned = 1', ONLOAD: 'x' }),
            el(6, 'a', { href: 'java\nscript:parent.pwned=1' }),
            el(7, 'iframe', { srcdoc: '<script>parent.pwned=1</script>', src: 'https://evil.example/' }),
            el(8, 'meta', { 'http-equiv': 'refresh', content: '0;url=/beacon-meta' }),
            el(9, 'base', { href: 'https://evil.example/' }),
            el(10, 'div', { style: 'background:url(/beacon-style)' }),
            el(11, 'style', { _cssText: 'body{background:url(/beacon-sheet)}' }),
            el(12, 'style', {}, [text(13, 'p{background:url(/beacon-text)}', true)]),
            el(14, 'p', { title: 'kept' }, [text(15, 'Hello')]),
          ),
        ],
        origin,
      ),
    );
    for (const gone of ['pwned', 'evil', 'beacon', 'onerror', 'ONLOAD', 'srcdoc', 'http-equiv', 'javascript'])
      expect(out).not.toContain(gone);
    expect(out).toContain('kept');
    expect(out).toContain('Hello');
  });

  it('cleans later changes too: added nodes, attributes, style texts and rules', () => {
    const out = sanitizeEvents(
      [
        snapshot(el(3, 'style', {}, [text(4, 'p{}', true)]), el(5, 'div', {})),
        {
          type: 3,
          timestamp: 2,
          data: {
            source: 0,
            adds: [{ parentId: 5, nextId: null, node: el(6, 'img', { src: '/beacon-add', onload: 'x()' }) }],
            attributes: [
              {
                id: 5,
                attributes: { onclick: 'x()', style: { background: 'url(/beacon-attr)' }, class: null },
              },
            ],
            texts: [{ id: 4, value: 'p{background:url(/beacon-later)}' }],
            removes: [],
          },
        },
        {
          type: 3,
          timestamp: 3,
          data: { source: 8, id: 3, adds: [{ rule: 'a{background:url(/beacon-rule)}' }] },
        },
        {
          type: 3,
          timestamp: 4,
          data: { source: 13, id: 3, index: [0], set: { property: 'x', value: 'url(/b)' } },
        },
        {
          type: 3,
          timestamp: 5,
          data: { source: 10, family: 'f', fontSource: 'url(/beacon-font)', buffer: false },
        },
        { type: 3, timestamp: 6, data: { source: 9, id: 1, type: 0, commands: [] } },
        { type: 5, timestamp: 7, data: { tag: 'x', payload: {} } },
        { type: 4, timestamp: 8, data: { href: 'https://shop.example/', width: 1280, height: 720 } },
        'not an event',
        { type: 3, data: { source: 0 } },
      ],
      origin,
    );
    const json = nodes(out);
    expect(json).not.toContain('beacon');
    expect(json).not.toContain('onclick');
    expect(json).not.toContain('onload');
    expect(json).not.toContain('url(/b)');
    // The class removal (null) stays a removal; kinds a DOM replay needs stay, the rest go.
    expect(json).toContain('"class":null');
    expect(out.map((e) => e.type)).toEqual([2, 3, 3, 3, 4]);
  });

  it("takes every picture and font the frame loads through the project's proxy, links and the rest as they were", () => {
    const site = '5b0d6f1e-0000-4000-8000-000000000001';
    const asset = replayAssetUrl({ siteId: site, name: 'r.gz' }, origin);
    // A signed link's public player takes them through that link's own proxy.
    expect(replayAssetUrl({ token: 'a.b.c.d' }, origin)('https://shop.example/x.png')).toBe(
      `${origin}/api/replay/a.b.c.d/asset?url=https%3A%2F%2Fshop.example%2Fx.png`,
    );
    const proxied = (url: string) =>
      `${origin}/api/client/replay-asset/${site}?url=${encodeURIComponent(url)}`;
    expect(asset('https://shop.example/a b.png?x=1&y=2')).toBe(
      `${origin}/api/client/replay-asset/${site}?url=https%3A%2F%2Fshop.example%2Fa+b.png%3Fx%3D1%26y%3D2`,
    );
    const img = 'https://shop.example/logo.png';
    const font = 'https://fonts.example/brand.woff2';
    const out = sanitizeEvents(
      [
        snapshot(
          el(3, 'img', { src: img, srcset: `${img} 1x, https://shop.example/logo@2x.png 2x` }),
          el(4, 'style', { _cssText: `@font-face{font-family:b;src:url(${font}) format("woff2")}` }),
          el(5, 'div', { style: `background:url('${img}')` }),
          el(6, 'a', { href: 'https://shop.example/cart' }),
          el(7, 'link', { rel: 'preload', as: 'font', href: font }),
          el(8, 'img', { src: 'data:image/png;base64,AAAA' }),
          el(9, 'style', {}, [text(10, `p{background:url("${img}")}`, true)]),
        ),
        {
          type: 3,
          timestamp: 2,
          data: {
            source: 0,
            adds: [{ parentId: 2, nextId: null, node: el(11, 'video', { poster: img }) }],
            attributes: [{ id: 3, attributes: { src: 'https://shop.example/next.png' } }],
            texts: [{ id: 10, value: `p{background:url(${img})}` }],
            removes: [],
          },
        },
        {
          type: 3,
          timestamp: 3,
          data: { source: 13, id: 4, index: [0], set: { property: 'background', value: `url(${img})` } },
        },
      ],
      origin,
      asset,
    );
    const json = nodes(out);
    const page = out[0] as {
      data: { node: { childNodes: { childNodes: { attributes: Record<string, string> }[] }[] } };
    };
    const [image, sheet, div, link, preload, inline] = page.data.node.childNodes[0]!.childNodes.map(
      (n) => n.attributes,
    );
    expect(image?.src).toBe(proxied(img));
    expect(image?.srcset).toBe(`${proxied(img)} 1x, ${proxied('https://shop.example/logo@2x.png')} 2x`);
    expect(sheet?._cssText).toBe(`@font-face{font-family:b;src:url("${proxied(font)}") format("woff2")}`);
    expect(div?.style).toBe(`background:url("${proxied(img)}")`);
    expect(link?.href).toBe('https://shop.example/cart');
    expect(preload?.href).toBe(proxied(font));
    expect(inline?.src).toBe('data:image/png;base64,AAAA');
    // Later changes are taken through it too; nothing but the proxy and the link names the shop.
    expect(json).toContain(JSON.stringify(proxied('https://shop.example/next.png')));
    const direct = json
      .replaceAll(encodeURIComponent('https://'), '')
      .match(/https:\/\/(?:shop|fonts)\.example[^"\\]*/g);
    expect(direct).toEqual(['https://shop.example/cart']);
    // Without the proxy (a signed link's reader) the addresses stay as they were, for the policy to refuse.
    expect(nodes(sanitizeEvents([snapshot(el(3, 'img', { src: img }))], origin))).toContain(`"src":"${img}"`);
  });

  it('answers nothing for a file that is not an array of events', () => {
    expect(sanitizeEvents({ events: [] }, origin)).toEqual([]);
    expect(sanitizeEvents(null, origin)).toEqual([]);
  });
});
