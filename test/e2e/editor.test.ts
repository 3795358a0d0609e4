/**
 * The annotation editor on its own, in Chromium (issue 21 split it into parts; this pins what it does):
 * the component is bundled with esbuild and mounted in a shadow root with the widget's styles, on a
 * 1200 × 750 screenshot, with no stack behind it. Each case drives the pointer and the keyboard as a visitor
 * would and checks the history the editor hands back on Escape (its `onDone`).
 */
import { resolve } from 'node:path';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Doc, History } from '../../widget/src/app/annotate/model';
import en from '../../widget/src/i18n/en';
import { launchBrowser } from '../support/browser';

const root = resolve(import.meta.dirname, '../..');
const W = 1200;
const H = 750;

/** Mounts the Editor on a white screenshot; `window.done` / `window.cancelled` record how it was left. */
const harness = `
import { render } from 'preact';
import { jsx } from 'preact/jsx-runtime';
import { startHistory } from './widget/src/app/annotate/model';
import { appCss } from './widget/src/app/styles';
import { Editor } from './widget/src/app/ui/Editor';
import en from './widget/src/i18n/en';
const base = document.createElement('canvas');
base.width = ${W};
base.height = ${H};
const g = base.getContext('2d');
g.fillStyle = '#fff';
g.fillRect(0, 0, ${W}, ${H});
const host = document.createElement('div');
document.body.append(host);
const shadow = host.attachShadow({ mode: 'open' });
const style = document.createElement('style');
style.textContent = appCss({ color: '#0090FF', scheme: 'white', position: 'right' });
const box = document.createElement('div');
box.className = 'w';
shadow.append(style, box);
const shot = { id: 1, base, html: '', placeholders: 0, history: startHistory(), thumb: '' };
render(jsx(Editor, { t: en, shot, onDone: (h) => { window.done = h; }, onCancel: () => { window.cancelled = true; } }), box);
`;

let browser: Browser;
let script: string;

beforeAll(async () => {
  const out = await build({
    stdin: { contents: harness, resolveDir: root, loader: 'ts' },
    bundle: true,
    format: 'iife',
    target: 'es2019',
    write: false,
    logLevel: 'warning',
  });
  script = out.outputFiles[0]!.text;
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

async function openEditor(): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.setContent('<!doctype html><body style="margin:0"></body>');
  await page.addScriptTag({ content: script });
  await page.getByRole('dialog', { name: en.editorTitle }).waitFor();
  return page;
}

/** A point on the canvas as fractions of the picture shown. */
async function at(page: Page, fx: number, fy: number) {
  const box = (await page.getByRole('img', { name: en.editorTitle }).boundingBox())!;
  return { x: box.x + fx * box.width, y: box.y + fy * box.height };
}

async function drag(page: Page, from: [number, number], to: [number, number]) {
  const a = await at(page, ...from);
  const b = await at(page, ...to);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2);
  await page.mouse.move(b.x, b.y);
  await page.mouse.up();
}

const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });

/** Leaves with Escape and returns the history the editor handed back. */
async function leave(page: Page): Promise<History> {
  // Escape leaves from anywhere in the editor but a text field; after a finished text entry the focus
  // returns to the canvas. Wait until it is back in the editor: on a loaded machine the key could
  // otherwise reach the page body first, and a keyboard user would see the same.
  await page
    .waitForFunction(
      () => {
        const focused = document.querySelector('div')?.shadowRoot?.activeElement;
        return !!focused && focused.tagName !== 'INPUT' && !!focused.closest('.ed');
      },
      undefined,
      { timeout: 5000 },
    )
    .catch(async () => {
      const where = await page.evaluate(() => {
        const inner = document.querySelector('div')?.shadowRoot?.activeElement;
        const el = inner ?? document.activeElement;
        return `${inner ? 'shadow' : 'document'} ${el?.tagName}.${el?.className}`;
      });
      throw new Error(`the focus is not back in the editor before Escape: it is on ${where}`);
    });
  await page.keyboard.press('Escape');
  // The editor hands its history back from its own key handler; wait for it rather than race it.
  await page.waitForFunction(() => (window as unknown as { done?: History }).done !== undefined, undefined, {
    timeout: 5000,
  });
  const done = (await page.evaluate(() => (window as unknown as { done?: History }).done)) as History;
  expect(done).toBeDefined();
  await page.close();
  return done;
}

const only = (doc: Doc) => {
  expect(doc.shapes).toHaveLength(1);
  return doc.shapes[0]!;
};

describe('annotation editor', () => {
  it('draws a rectangle, deletes it with the key, and undoes and redoes from the keyboard', async () => {
    const page = await openEditor();
    expect(await button(page, en.toolRect).getAttribute('aria-pressed')).toBe('true');
    expect(await button(page, en.undo).isDisabled()).toBe(true);
    expect(await button(page, en.deleteShape).isDisabled()).toBe(true);

    await drag(page, [0.2, 0.2], [0.5, 0.6]);
    // The new shape is selected: Delete is offered, and so is Undo.
    expect(await button(page, en.deleteShape).isEnabled()).toBe(true);
    expect(await button(page, en.undo).isEnabled()).toBe(true);

    await page.keyboard.press('Delete');
    expect(await button(page, en.deleteShape).isDisabled()).toBe(true);
    await page.keyboard.press('Control+z'); // the rectangle is back, not selected
    expect(await button(page, en.deleteShape).isDisabled()).toBe(true);
    expect(await button(page, en.redo).isEnabled()).toBe(true);
    await page.keyboard.press('Control+Shift+z'); // deleted again
    await page.keyboard.press('Control+z');
    await page.keyboard.press('Control+y');
    await page.keyboard.press('Control+z');

    const history = await leave(page);
    const rect = only(history.doc);
    expect(rect.kind).toBe('rect');
    if (rect.kind !== 'rect') return;
    expect(rect.color).toBe('#E5484D');
    expect(rect.a.x).toBeCloseTo(0.2 * W, 0);
    expect(rect.a.y).toBeCloseTo(0.2 * H, 0);
    expect(rect.b.x).toBeCloseTo(0.5 * W, 0);
    expect(rect.b.y).toBeCloseTo(0.6 * H, 0);
    expect(history.past).toHaveLength(1);
    expect(history.future).toHaveLength(1);
  });

  it('selects with the select tool, moves by dragging and by the arrow keys, and recolours the selection', async () => {
    const page = await openEditor();
    await drag(page, [0.2, 0.2], [0.4, 0.4]);
    await button(page, en.toolSelect).click();
    expect(await button(page, en.toolSelect).getAttribute('aria-pressed')).toBe('true');
    // Another tool drops the selection; the select tool keeps it.
    expect(await button(page, en.deleteShape).isEnabled()).toBe(true);
    await button(page, en.toolArrow).click();
    expect(await button(page, en.deleteShape).isDisabled()).toBe(true);
    await button(page, en.toolSelect).click();

    await drag(page, [0.3, 0.3], [0.4, 0.3]); // a tenth of the width to the right
    await page.getByRole('img', { name: en.editorTitle }).focus();
    await page.keyboard.press('ArrowRight'); // one pixel (device pixel ratio 1)
    await page.keyboard.press('Shift+ArrowDown'); // ten
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await button(page, en.colorBlue).click();
    expect(await button(page, en.colorBlue).getAttribute('aria-pressed')).toBe('true');

    const history = await leave(page);
    const rect = only(history.doc);
    if (rect.kind !== 'rect') throw new Error(rect.kind);
    expect(rect.color).toBe('#0090FF');
    expect(rect.a.x).toBeCloseTo(0.3 * W - 1, 0);
    expect(rect.a.y).toBeCloseTo(0.2 * H + 10, 0);
    expect(rect.b.x - rect.a.x).toBeCloseTo(0.2 * W, 0);
    // draw, drag, four keys, colour: one history step each.
    expect(history.past).toHaveLength(7);
  });

  it('crops to a dragged region, then draws with the pen and an arrow inside it', async () => {
    const page = await openEditor();
    await button(page, en.toolCrop).click();
    await drag(page, [0.1, 0.2], [0.6, 0.7]);
    await button(page, en.toolPen).click();
    await drag(page, [0.1, 0.1], [0.9, 0.9]);
    await button(page, en.toolArrow).click();
    await drag(page, [0.5, 0.5], [0.5, 0.5]); // a click is no arrow
    await drag(page, [0.2, 0.8], [0.8, 0.2]);

    const history = await leave(page);
    const { crop, shapes } = history.doc;
    expect(crop).toEqual({
      x: Math.round(0.1 * W),
      y: Math.round(0.2 * H),
      w: Math.round(0.5 * W),
      h: Math.round(0.5 * H),
    });
    expect(shapes.map((s) => s.kind)).toEqual(['pen', 'arrow']);
    const pen = shapes[0]!;
    if (pen.kind !== 'pen') throw new Error(pen.kind);
    expect(pen.points.length).toBeGreaterThanOrEqual(3);
    // Inside the crop: the picture now shows only the cropped region.
    expect(pen.points[0]!.x).toBeCloseTo(crop!.x + 0.1 * crop!.w, 0);
  });

  it('adds typed text on Enter, and keeps the editor open', async () => {
    const page = await openEditor();
    await button(page, en.toolText).click();
    const p = await at(page, 0.3, 0.4);
    await page.mouse.click(p.x, p.y);
    const field = page.getByRole('textbox', { name: en.textInput });
    await field.fill('  Broken button ');
    await field.press('Enter');
    await field.waitFor({ state: 'detached' });
    expect(await button(page, en.deleteShape).isEnabled()).toBe(true);
    // An empty entry adds nothing.
    await page.mouse.click(p.x, p.y + 100);
    const empty = page.getByRole('textbox', { name: en.textInput });
    await empty.press('Enter');
    // Escape while a text field is open would commit the field, not leave the editor.
    await empty.waitFor({ state: 'detached' });

    const history = await leave(page);
    const text = only(history.doc);
    if (text.kind !== 'text') throw new Error(text.kind);
    expect(text.text).toBe('Broken button');
    expect(text.at.x).toBeCloseTo(0.3 * W, 0);
    expect(text.size).toBe(Math.max(16, Math.round(W / 64)));
  });

  it('Cancel leaves without handing anything back; Done hands the marks back', async () => {
    const page = await openEditor();
    await drag(page, [0.2, 0.2], [0.4, 0.4]);
    await button(page, en.cancel).click();
    expect(await page.evaluate(() => (window as unknown as { cancelled?: boolean }).cancelled)).toBe(true);
    expect(await page.evaluate(() => (window as unknown as { done?: History }).done)).toBeUndefined();
    await page.close();

    const again = await openEditor();
    await drag(again, [0.2, 0.2], [0.4, 0.4]);
    await button(again, en.done).click();
    const done = (await again.evaluate(() => (window as unknown as { done?: History }).done)) as History;
    expect(done.doc.shapes).toHaveLength(1);
    await again.close();
  });
});
