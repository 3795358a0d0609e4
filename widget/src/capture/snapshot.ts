/**
 * The HTML snapshot: a self-contained serialisation of the page as the visitor sees it, for the dashboard
 * to show later in a sandboxed frame. Written from the live DOM (not `outerHTML`), because what matters
 * is the state: form values, checked boxes and selected options, CSSOM rules inserted by script,
 * adopted style sheets and open shadow roots (serialised declaratively).
 *
 * Nothing in it can run: no `<script>`/`<noscript>`, no `on*` attributes, no `javascript:` URLs, no frame
 * or plugin content (replaced by a box of the same size), no `<meta http-equiv>` and no `<base>` but
 * ours. Masked elements (mask.ts) keep their box and lose their value and text, and hidden inputs and
 * `<meta>` tags (CSRF tokens live there) lose their values too. URLs are absolute. Over the size cap it
 * trims gracefully: first data URLs, then inlined style sheets (linked instead), then the end of the body.
 */
import { uploadRules } from '#contracts/intake';
import { isMasked, MASK_COLOUR } from './mask';

const VOID = new Set(
  'area base br col embed hr img input link meta source track wbr param keygen'
    .split(' ')
    .map((t) => t.toUpperCase()),
);
/** Dropped with their content. */
const DROPPED = new Set(['SCRIPT', 'NOSCRIPT', 'TEMPLATE', 'BASE', 'NOEMBED', 'NOFRAMES']);
/** Replaced by an empty box of their size: their content is another document or a plugin. */
const REPLACED = new Set([
  'IFRAME',
  'FRAME',
  'FRAMESET',
  'OBJECT',
  'EMBED',
  'APPLET',
  'PORTAL',
  'FENCEDFRAME',
]);
/** Attributes a masked element keeps (layout and styling only): not alt, title, aria-*, data-*, value… */
const MASKED_KEEP = new Set([
  'id',
  'class',
  'style',
  'type',
  'name',
  'autocomplete',
  'width',
  'height',
  'data-snag-mask',
]);
const URL_ATTRIBUTES = new Set([
  'src',
  'href',
  'xlink:href',
  'action',
  'formaction',
  'poster',
  'data',
  'background',
  'cite',
]);

/** What a trimmed snapshot leaves out. */
export interface SnapshotOptions {
  /** Keep `data:` URLs (images, fonts) longer than a few hundred characters. */
  dataUrls: boolean;
  /** Inline the CSSOM of same-origin style sheets; otherwise link them. */
  inlineStyles: boolean;
  /** Stop adding nodes once the output has this many characters. */
  maxChars: number;
}

export function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
}

/** `javascript:` and `vbscript:` URLs, however the page spelled them (browsers ignore blanks and controls). */
export function isScriptUrl(value: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: browsers strip these before reading the scheme
  return /^(?:javascript|vbscript):/i.test(value.replace(/[\u0000-\u0020]/g, ''));
}

export function absoluteUrl(value: string, base: string): string {
  const v = value.trim();
  if (!v || v.startsWith('#') || /^(?:data|blob|about|mailto|tel):/i.test(v)) return v;
  try {
    return new URL(v, base).href;
  } catch {
    return v;
  }
}

/** Every `url(…)` in CSS text made absolute against `base`; long data URLs dropped unless `dataUrls`. */
export function absoluteCss(css: string, base: string, dataUrls = true): string {
  return css.replace(/url\(\s*(['"]?)(.*?)\1\s*\)/g, (_all, _q: string, url: string) => {
    if (/^data:/i.test(url)) return !dataUrls && url.length > 512 ? 'url("")' : `url("${url}")`;
    return `url("${absoluteUrl(url, base).replace(/"/g, '%22')}")`;
  });
}

/** `srcset` with each candidate's URL made absolute. */
export function absoluteSrcset(srcset: string, base: string): string {
  return srcset
    .split(',')
    .map((candidate) => {
      const [url = '', ...descriptor] = candidate.trim().split(/\s+/);
      return [absoluteUrl(url, base), ...descriptor].join(' ');
    })
    .join(', ');
}

/** The rules of a style sheet as text, or null when its origin forbids reading them. */
function sheetText(sheet: CSSStyleSheet): string | null {
  try {
    let text = '';
    for (const rule of sheet.cssRules) text += `${rule.cssText}\n`;
    return text;
  } catch {
    return null;
  }
}

class Serialiser {
  private out: string[] = [];
  private length = 0;
  trimmed = false;

  constructor(
    private readonly skip: (el: Element) => boolean,
    private readonly options: SnapshotOptions,
    private readonly base: string,
  ) {}

  private push(text: string): void {
    this.out.push(text);
    this.length += text.length;
  }

  result(): string {
    return this.out.join('');
  }

  private full(): boolean {
    if (this.length > this.options.maxChars) this.trimmed = true;
    return this.trimmed;
  }

  private url(value: string): string {
    if (!this.options.dataUrls && /^data:/i.test(value.trim()) && value.length > 512) return '';
    return absoluteUrl(value, this.base);
  }

  private style(css: string, base = this.base, media = ''): void {
    const attr = media ? ` media="${escapeAttribute(media)}"` : '';
    this.push(
      `<style${attr}>${absoluteCss(css, base, this.options.dataUrls).replace(/<\/(style)/gi, '<\\/$1')}</style>`,
    );
  }

  /** Attributes, with scripts and script URLs left out and URLs made absolute. */
  private attributes(el: Element, masked: boolean): string {
    let s = '';
    let extraStyle = '';
    if (masked) {
      // The box stays, in the mask colour; everything that could hold its text goes.
      const r = el.getBoundingClientRect();
      extraStyle = `;background:${MASK_COLOUR}!important;min-width:${r.width}px;min-height:${r.height}px`;
    }
    let styled = false;
    const formState = el.matches('input,option,textarea,select');
    for (const { name, value } of el.attributes) {
      const n = name.toLowerCase();
      if (n.startsWith('on') || n === 'srcdoc' || n === 'nonce' || n === 'autoplay') continue;
      if (masked && !MASKED_KEEP.has(n)) continue;
      // Form state is written from the live properties (formState), never from the markup's defaults.
      if (formState && (n === 'value' || n === 'checked' || n === 'selected')) continue;
      let v = value;
      if (URL_ATTRIBUTES.has(n)) {
        if (isScriptUrl(v)) continue;
        v = this.url(v);
      } else if (n === 'srcset' || n === 'imagesrcset') {
        v = absoluteSrcset(v, this.base);
      } else if (n === 'style') {
        v = absoluteCss(v, this.base, this.options.dataUrls) + extraStyle;
        styled = true;
      }
      s += ` ${name}="${escapeAttribute(v)}"`;
    }
    if (extraStyle && !styled) s += ` style="${escapeAttribute(extraStyle)}"`;
    return s;
  }

  /** The live state of a form control as attributes; nothing for masked and hidden ones. */
  private formState(el: Element, masked: boolean): string {
    if (masked) return '';
    if (el instanceof HTMLInputElement) {
      if (el.type === 'checkbox' || el.type === 'radio') return el.checked ? ' checked' : '';
      if (el.type === 'hidden' || el.type === 'file') return ''; // Hidden inputs carry tokens, not looks.
      return ` value="${escapeAttribute(el.value)}"`;
    }
    if (el instanceof HTMLOptionElement) return el.selected ? ' selected' : '';
    return '';
  }

  private children(parent: Node): void {
    for (let n = parent.firstChild; n; n = n.nextSibling) {
      if (this.full()) return;
      this.node(n);
    }
  }

  node(n: Node): void {
    if (n.nodeType === Node.TEXT_NODE) {
      this.push(escapeText((n as Text).data));
      return;
    }
    if (!(n instanceof Element)) return; // Comments and processing instructions carry nothing visible.
    const el = n;
    const tag = el.tagName.toUpperCase();
    if (this.skip(el) || DROPPED.has(tag)) return;
    // Meta tags hold tokens and keys, and http-equiv ones act (refresh, cookies); only the viewport matters.
    if (tag === 'META' && el.getAttribute('name')?.toLowerCase() !== 'viewport') return;
    if (tag === 'LINK') {
      this.link(el as HTMLLinkElement);
      return;
    }
    if (tag === 'STYLE') {
      const sheet = (el as HTMLStyleElement).sheet;
      const text = sheet ? sheetText(sheet) : el.textContent;
      if (text && !sheet?.disabled) this.style(text, this.base, el.getAttribute('media') ?? '');
      return;
    }
    if ((tag === 'SET' || tag === 'ANIMATE') && /href/i.test(el.getAttribute('attributeName') ?? '')) return;
    const name = el.localName;
    if (REPLACED.has(tag)) {
      const r = el.getBoundingClientRect();
      const box = `display:inline-block;width:${r.width}px;height:${r.height}px;background:#e4e6eb`;
      this.push(`<div data-snag-replaced="${escapeAttribute(name)}" style="${box}"></div>`);
      return;
    }
    // A masked element keeps its box and nothing inside: no text, no children, no shadow tree.
    const masked = isMasked(el);
    if (tag === 'CANVAS' && !masked) {
      const data = this.canvasData(el as HTMLCanvasElement);
      if (data) {
        this.push(`<img${this.attributes(el, false)} src="${escapeAttribute(data)}">`);
        return;
      }
    }
    this.push(`<${name}${this.attributes(el, masked)}${this.formState(el, masked)}>`);
    if (tag === 'HEAD') this.headStart();
    if (VOID.has(tag)) return;
    if (!masked) {
      if (el.shadowRoot) this.shadow(el.shadowRoot);
      if (tag === 'TEXTAREA') this.push(escapeText((el as HTMLTextAreaElement).value));
      else this.children(el);
    }
    if (tag === 'HEAD') this.adopted(document);
    this.push(`</${name}>`);
  }

  private canvasData(canvas: HTMLCanvasElement): string | null {
    if (!this.options.dataUrls || !canvas.width || !canvas.height) return null;
    try {
      return canvas.toDataURL(); // Throws for a canvas tainted by cross-origin pixels: then an empty canvas.
    } catch {
      return null;
    }
  }

  private link(link: HTMLLinkElement): void {
    const rel = link.rel.toLowerCase().split(/\s+/);
    if (!rel.includes('stylesheet') && !rel.includes('icon')) return; // preload, manifest, …: nothing to see.
    if (isScriptUrl(link.getAttribute('href') ?? '')) return;
    const sheet = link.sheet;
    if (sheet?.disabled) return;
    const text = rel.includes('stylesheet') && this.options.inlineStyles && sheet ? sheetText(sheet) : null;
    if (text !== null) {
      this.style(text, link.href, link.media);
      return;
    }
    this.push(`<link${this.attributes(link, false)}>`);
  }

  private adopted(root: Document | ShadowRoot): void {
    for (const sheet of adoptedSheets(root)) {
      const text = sheetText(sheet);
      if (text) this.style(text);
    }
  }

  private shadow(root: ShadowRoot): void {
    this.push(`<template shadowrootmode="open"${root.delegatesFocus ? ' shadowrootdelegatesfocus' : ''}>`);
    this.adopted(root);
    this.children(root);
    this.push('</template>');
  }

  private headStart(): void {
    const meta = {
      url: location.href,
      scrollX: window.scrollX,
      scrollY: window.scrollY,
      width: window.innerWidth,
      height: window.innerHeight,
      devicePixelRatio: window.devicePixelRatio || 1,
    };
    this.push(
      `<meta charset="utf-8"><base href="${escapeAttribute(this.base)}">` +
        `<meta name="snag-snapshot" content="${escapeAttribute(JSON.stringify(meta))}">`,
    );
  }
}

function serialise(
  skip: (el: Element) => boolean,
  options: SnapshotOptions,
): { html: string; trimmed: boolean } {
  const base = location.href;
  const s = new Serialiser(skip, options, base);
  const root = document.documentElement;
  s.node(root);
  return { html: `<!DOCTYPE html>\n${s.result()}`, trimmed: s.trimmed };
}

const byteLength = (s: string) => new TextEncoder().encode(s).length;

/** The page as HTML, at most `maxBytes` UTF-8 bytes (uploadRules.snapshot.maxBytes). */
export function snapshotHtml(
  skip: (el: Element) => boolean,
  maxBytes = uploadRules.snapshot.maxBytes,
): string {
  const attempts: Omit<SnapshotOptions, 'maxChars'>[] = [
    { dataUrls: true, inlineStyles: true },
    { dataUrls: false, inlineStyles: true },
    { dataUrls: false, inlineStyles: false },
  ];
  let html = '';
  for (const attempt of attempts) {
    html = serialise(skip, { ...attempt, maxChars: Number.POSITIVE_INFINITY }).html;
    if (byteLength(html) <= maxBytes) return html;
  }
  // Still too large: stop adding nodes early enough (a character is at most 3 UTF-8 bytes here).
  for (let maxChars = Math.floor(maxBytes / 1.5); ; maxChars = Math.floor(maxChars / 1.5)) {
    html = serialise(skip, { dataUrls: false, inlineStyles: false, maxChars }).html;
    if (byteLength(html) <= maxBytes) return html;
  }
}

/**
 * A root's adopted style sheets as an array. In a Firefox extension's content script (the browser
 * extension's reporter runs this code there) the page's `adoptedStyleSheets`, an ObservableArray, comes
 * through an Xray wrapper with neither an iterator nor a length, and iterating it throws, which failed every
 * screenshot in Firefox; the page's own view (`wrappedJSObject`) is the real array. On a page (the widget)
 * the list is iterable as it is.
 */
function adoptedSheets(root: Document | ShadowRoot): CSSStyleSheet[] {
  const list = root.adoptedStyleSheets as CSSStyleSheet[] | undefined;
  if (!list) return [];
  if (typeof list[Symbol.iterator] === 'function') return [...list];
  const own = (root as { wrappedJSObject?: { adoptedStyleSheets?: ArrayLike<CSSStyleSheet> } })
    .wrappedJSObject;
  return own?.adoptedStyleSheets ? Array.from(own.adoptedStyleSheets) : [];
}
