/**
 * The page snapshot as the dashboard shows it (issue 19): the visitor's stored HTML, made into a document
 * that is served from the uploads bucket's origin (never the dashboard's) inside a sandboxed frame, so
 * the customer's images, style sheets and fonts load as they did for the visitor, and that opens where
 * the visitor was scrolled without running any script. Pure: review.ts reads and writes the objects.
 */
import * as z from 'zod';
import type { SnapshotView } from '#contracts/review';

/** The element the frame's address names (`#…`): the browser scrolls to it on load, no script needed. */
export const scrollAnchorId = 'snag-scroll-position';

/**
 * The policy every served snapshot carries first in its head. It holds even if the document is opened
 * on its own, outside the sandboxed frame: nothing runs, nothing is sent anywhere but the page's images,
 * style sheets, fonts and media, and the visitor's `<base>` (the widget writes the page's address there)
 * still resolves relative addresses against the customer's site.
 */
export const snapshotViewPolicy = [
  "default-src 'none'",
  "script-src 'none'",
  "object-src 'none'",
  "frame-src 'none'",
  "worker-src 'none'",
  "connect-src 'none'",
  "form-action 'none'",
  'base-uri http: https:',
  'img-src data: blob: http: https:',
  'media-src data: http: https:',
  "style-src 'unsafe-inline' http: https:",
  'font-src data: http: https:',
].join('; ');

const coordinate = z.number().finite().min(0).max(1_000_000);
const metaSchema = z.object({
  scrollX: coordinate.catch(0),
  scrollY: coordinate.catch(0),
  width: z.number().finite().min(100).max(10_000),
  height: z.number().finite().min(100).max(10_000),
  devicePixelRatio: z.number().finite().min(0.25).max(10).catch(1),
});

const decodeAttribute = (value: string) =>
  value
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/**
 * The `<meta name="snag-snapshot">` the widget writes at the head of every snapshot (docs/decisions-widget.md
 * "HTML snapshot"): scroll position, viewport and devicePixelRatio. Null when it is missing or malformed
 * (an old or hand-made snapshot): the viewer then shows the page from the top at the frame's size.
 */
export function snapshotMeta(html: string): SnapshotView | null {
  // The widget writes it within the first few hundred bytes; a visitor's page has no meta tags left.
  const head = html.slice(0, 4096);
  const tag = /<meta\s+name="snag-snapshot"\s+content="([^"]*)"/i.exec(head);
  if (!tag?.[1]) return null;
  try {
    const parsed = metaSchema.safeParse(JSON.parse(decodeAttribute(tag[1])));
    if (!parsed.success) return null;
    const m = parsed.data;
    return {
      scrollX: Math.round(m.scrollX),
      scrollY: Math.round(m.scrollY),
      width: Math.round(m.width),
      height: Math.round(m.height),
      devicePixelRatio: m.devicePixelRatio,
    };
  } catch {
    return null;
  }
}

/**
 * The served document: the policy and a no-referrer rule first (after the doctype, so the page keeps its
 * standards mode), the visitor's HTML unchanged, and an invisible anchor at the recorded scroll position
 * (as tall as the viewport, so the page is always long enough to scroll there). The anchor is absolutely
 * positioned, so it takes no room in the page's layout.
 */
export function snapshotViewDocument(html: string, meta: SnapshotView | null): string {
  const head = `<meta http-equiv="Content-Security-Policy" content="${snapshotViewPolicy}"><meta name="referrer" content="no-referrer">`;
  const doctype = /^\uFEFF?\s*<!doctype[^>]*>/i.exec(html)?.[0] ?? '';
  const rest = html.slice(doctype.length);
  const anchor = meta
    ? `<div id="${scrollAnchorId}" aria-hidden="true" style="position:absolute!important;display:block!important;` +
      `top:${meta.scrollY}px!important;left:${meta.scrollX}px!important;width:1px!important;` +
      `height:${meta.height}px!important;margin:0!important;padding:0!important;border:0!important;` +
      'visibility:hidden!important;pointer-events:none!important"></div>'
    : '';
  return `${doctype}${head}${rest}${anchor}`;
}
