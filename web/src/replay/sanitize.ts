/**
 * A recording is the visitor's page, so anyone who can post a report can craft one (docs/replay.md, "The
 * issue page"). The player replays it in a frame without scripts (rrweb's sandbox, `allow-same-origin`
 * only) under the dashboard's policy, which lets it load nothing but the dashboard's own origin, the
 * uploads bucket and data: addresses. That leaves one way out: a request to the dashboard's own origin,
 * which carries the session cookie. So before the replayer sees the events, everything that could run,
 * navigate or fetch is taken out, on the events as plain JSON (a hostile file need not be well formed):
 *
 * - only the event kinds a DOM replay needs are kept (no custom, plugin, asset, canvas or font events);
 * - `on…` attributes, `srcdoc`, any value that names a `javascript:`/`vbscript:` address, a `<meta>`'s
 *   `http-equiv` and `content`, a `<base>`'s `href`, a frame's or object's source, and a script's text;
 * - an address (src, href, srcset, poster, action …) stays only when it is absolute http(s) on another
 *   origin (which the policy then still refuses, except the uploads bucket) or a `data:image/` picture;
 *   a relative one would resolve against the dashboard;
 * - in style sheets, style attributes and style rules, `url(…)` keeps only such addresses, `@import` and
 *   `image-set(…)` go, and a sheet that spells `url` with escapes is dropped whole.
 *
 * The rules run on the full snapshots and on every later change (added nodes, attribute and text
 * changes, style rules), so a recording cannot bring something in after the first frame.
 *
 * Given `asset` (an issue's recording, read signed in), every kept http(s) address that the frame would
 * load as a picture or a font (src, srcset, poster, an svg image's or a `<link>`'s href, CSS `url(…)`) is
 * rewritten to the dashboard's own proxy for it (`GET client/replay-asset/{siteId}?url=`), which fetches
 * it on the server: the policy stays as it is, and the reader's browser never calls a host a visitor chose.
 */

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** rrweb's event types (`@rrweb/types` EventType): DomContentLoaded, Load, FullSnapshot, Incremental, Meta. */
const keptEvents = new Set([0, 1, 2, 3, 4]);
const fullSnapshot = 2;
const incremental = 3;
/**
 * rrweb's incremental sources kept: mutation, mouse move and interaction, scroll, viewport, input, touch,
 * media, style rule, drag, style declaration, selection, adopted sheets. Left out: canvas (9), font (10,
 * it names a font file to fetch), log (11) and custom elements (16, it defines elements in the frame).
 */
const keptSources = new Set([0, 1, 2, 3, 4, 5, 6, 7, 8, 12, 13, 14, 15]);
const mutation = 0;
const styleSheetRule = 8;
const styleDeclaration = 13;
const adoptedStyleSheet = 15;

/** rrweb's serialized node types (`NodeType`): Element 2, Text 3. */
const elementNode = 2;
const textNode = 3;

const urlAttributes = new Set([
  'src',
  'href',
  'xlink:href',
  'srcset',
  'poster',
  'background',
  'action',
  'formaction',
  'data',
  'ping',
  'lowsrc',
  'dynsrc',
  'manifest',
  'icon',
  'codebase',
  'cite',
  'longdesc',
  'archive',
  'imagesrcset',
]);

/** Elements whose own content would be fetched or run: their source goes whatever it names. */
const framingTags = new Set(['iframe', 'frame', 'object', 'embed', 'portal', 'applet']);

/** Strips what browsers ignore inside a scheme (`java\tscript:`), then looks for a script scheme. */
function namesScript(value: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what a scheme hides behind.
  const squeezed = value.replace(/[\u0000-\u0020\u007f-\u009f]+/g, '').toLowerCase();
  return /(?:java|vb)script:/.test(squeezed) || squeezed.includes('data:text/html');
}

/** An address the frame may try to load: absolute http(s) on another origin, or a data: picture. */
export function allowedUrl(value: string, dashboardOrigin: string): boolean {
  const trimmed = value.trim();
  if (/^data:image\//i.test(trimmed)) return !namesScript(trimmed.slice(5));
  let url: URL;
  try {
    // No base: a relative address would resolve against the dashboard, so it throws here and goes.
    url = new URL(trimmed);
  } catch {
    return false;
  }
  return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin !== dashboardOrigin;
}

/** Where the frame loads a kept address from: the proxy's address for an http(s) one, else itself. */
export type AssetUrl = (url: string) => string;

const loadedFrom = (url: string, asset: AssetUrl | undefined) =>
  asset && /^https?:/i.test(url.trim()) ? asset(url.trim()) : url;

const srcsetCandidates = (value: string) =>
  value
    .split(',')
    .map((candidate) => candidate.trim().split(/\s+/))
    .filter((parts) => Boolean(parts[0]));

const allowedSrcset = (value: string, origin: string) =>
  srcsetCandidates(value).every(([url]) => allowedUrl(url ?? '', origin));

const srcsetFrom = (value: string, asset: AssetUrl | undefined) =>
  asset
    ? srcsetCandidates(value)
        .map(([url = '', ...descriptors]) => [loadedFrom(url, asset), ...descriptors].join(' '))
        .join(', ')
    : value;

/** Attributes whose address the frame loads as a picture or a font (a link's or svg image's href too). */
const loadedAttributes = new Set(['src', 'poster', 'background', 'lowsrc', 'dynsrc', 'icon', 'xlink:href']);
const loadedHref = new Set(['link', 'image', 'use', 'feimage']);

/** CSS with its addresses checked (see the module's comment); '' when it hides `url` behind escapes. */
export function safeCss(css: string, dashboardOrigin: string, asset?: AssetUrl): string {
  // `\75 rl(` and the like: an escaped letter of url, or of import or image-set, is never innocent.
  if (/\\0{0,4}(?:75|55|72|52|6c|4c|69|49|6d|4d)(?![0-9a-f])/i.test(css) || /\\[urlimURLIM]/.test(css))
    return '';
  return css
    .replace(/@import[^;]*;?/gi, '')
    .replace(/image-set\(/gi, 'none(')
    .replace(/url\(\s*(?:"([^"]*)"|'([^']*)'|([^)]*))\s*\)/gi, (_all, dq, sq, bare) => {
      const target = String(dq ?? sq ?? bare ?? '').trim();
      if (!allowedUrl(target, dashboardOrigin)) return 'none';
      return `url("${loadedFrom(target, asset).replace(/"/g, '%22')}")`;
    });
}

/** An attribute's value as the frame may have it, or undefined when it must go. */
function safeAttribute(
  tag: string,
  name: string,
  value: unknown,
  origin: string,
  asset: AssetUrl | undefined,
): unknown {
  const key = name.toLowerCase();
  if (key.startsWith('on') || key === 'srcdoc') return undefined;
  if (tag === 'meta' && (key === 'http-equiv' || key === 'content')) return undefined;
  if (tag === 'base' && (key === 'href' || key === 'target')) return undefined;
  if (framingTags.has(tag) && (key === 'src' || key === 'data' || key === 'srcdoc')) return undefined;
  if (tag === 'script') return undefined;
  // A style attribute changed later comes as an object of properties.
  if (key === 'style' && isObject(value)) return safeStyleObject(value, origin, asset);
  if (typeof value !== 'string') return value;
  if (namesScript(value)) return undefined;
  if (key === 'style' || key === '_csstext') return safeCss(value, origin, asset);
  if (key === 'rr_dataurl') return /^data:image\//i.test(value.trim()) ? value : undefined;
  if (key === 'srcset' || key === 'imagesrcset')
    return allowedSrcset(value, origin) ? srcsetFrom(value, asset) : undefined;
  if (!urlAttributes.has(key)) return value;
  if (value.trim() !== '' && !allowedUrl(value, origin)) return undefined;
  return loadedAttributes.has(key) || (key === 'href' && loadedHref.has(tag))
    ? loadedFrom(value, asset)
    : value;
}

function safeStyleObject(style: Json, origin: string, asset: AssetUrl | undefined): Json {
  const out: Json = {};
  for (const [property, value] of Object.entries(style)) {
    if (typeof value === 'string') out[property] = safeCss(value, origin, asset);
    else if (Array.isArray(value))
      out[property] = value.map((v) => (typeof v === 'string' ? safeCss(v, origin, asset) : v));
    else out[property] = value;
  }
  return out;
}

function safeAttributes(tag: string, attributes: unknown, origin: string, asset?: AssetUrl): Json {
  if (!isObject(attributes)) return {};
  const out: Json = {};
  for (const [name, value] of Object.entries(attributes)) {
    const safe = safeAttribute(tag, name, value, origin, asset);
    // null in a change means "removed": that always stays.
    if (safe !== undefined || value === null) out[name] = value === null ? null : safe;
  }
  return out;
}

/** What the walk remembers across events: each node's tag, and which text nodes hold style sheets. */
interface Seen {
  tags: Map<number, string>;
  styleTexts: Set<number>;
  origin: string;
  asset: AssetUrl | undefined;
}

function safeNode(node: unknown, parentTag: string, seen: Seen): unknown {
  if (!isObject(node)) return node;
  const id = typeof node.id === 'number' ? node.id : undefined;
  if (node.type === elementNode) {
    const tag = String(node.tagName ?? '').toLowerCase();
    if (id !== undefined) seen.tags.set(id, tag);
    const children = Array.isArray(node.childNodes) ? node.childNodes : [];
    return {
      ...node,
      attributes: safeAttributes(tag, node.attributes, seen.origin, seen.asset),
      // A script keeps its place (later changes name its id) but loses its text.
      childNodes: tag === 'script' ? [] : children.map((child) => safeNode(child, tag, seen)),
    };
  }
  if (node.type === textNode) {
    const style = node.isStyle === true || parentTag === 'style';
    if (style && id !== undefined) seen.styleTexts.add(id);
    if (parentTag === 'script') return { ...node, textContent: '' };
    if (style && typeof node.textContent === 'string')
      return { ...node, textContent: safeCss(node.textContent, seen.origin, seen.asset) };
    return node;
  }
  const children = Array.isArray(node.childNodes) ? node.childNodes : undefined;
  return children ? { ...node, childNodes: children.map((child) => safeNode(child, parentTag, seen)) } : node;
}

const safeRule = (rule: unknown, origin: string, asset: AssetUrl | undefined) =>
  isObject(rule) && typeof rule.rule === 'string'
    ? { ...rule, rule: safeCss(rule.rule, origin, asset) }
    : rule;

function safeIncremental(data: Json, seen: Seen): Json {
  const { origin, asset } = seen;
  const list = (value: unknown) => (Array.isArray(value) ? value : []);
  switch (data.source) {
    case mutation:
      return {
        ...data,
        adds: list(data.adds).map((add) =>
          isObject(add)
            ? { ...add, node: safeNode(add.node, seen.tags.get(Number(add.parentId)) ?? '', seen) }
            : add,
        ),
        attributes: list(data.attributes).map((change) =>
          isObject(change)
            ? {
                ...change,
                attributes: safeAttributes(
                  seen.tags.get(Number(change.id)) ?? '',
                  change.attributes,
                  origin,
                  asset,
                ),
              }
            : change,
        ),
        texts: list(data.texts).map((change) =>
          isObject(change) && seen.styleTexts.has(Number(change.id)) && typeof change.value === 'string'
            ? { ...change, value: safeCss(change.value, origin, asset) }
            : change,
        ),
      };
    case styleSheetRule:
      return { ...data, adds: list(data.adds).map((rule) => safeRule(rule, origin, asset)) };
    case styleDeclaration:
      return isObject(data.set) && typeof data.set.value === 'string'
        ? { ...data, set: { ...data.set, value: safeCss(data.set.value, origin, asset) } }
        : data;
    case adoptedStyleSheet:
      return {
        ...data,
        styles: list(data.styles).map((sheet) =>
          isObject(sheet)
            ? { ...sheet, rules: list(sheet.rules).map((rule) => safeRule(rule, origin, asset)) }
            : sheet,
        ),
      };
    default:
      return data;
  }
}

/**
 * The events the player may replay: `events` (parsed JSON, any shape) filtered and cleaned for a frame of
 * `dashboardOrigin`, the pictures and fonts they load taken through `asset` when given. Anything that is
 * not an event object with a numeric timestamp is dropped.
 */
export function sanitizeEvents(events: unknown, dashboardOrigin: string, asset?: AssetUrl): Json[] {
  if (!Array.isArray(events)) return [];
  const seen: Seen = { tags: new Map(), styleTexts: new Set(), origin: dashboardOrigin, asset };
  const out: Json[] = [];
  for (const event of events) {
    if (!isObject(event) || typeof event.timestamp !== 'number' || !keptEvents.has(Number(event.type)))
      continue;
    const data = isObject(event.data) ? event.data : {};
    if (event.type === fullSnapshot) {
      out.push({ ...event, data: { ...data, node: safeNode(data.node, '', seen) } });
    } else if (event.type === incremental) {
      if (keptSources.has(Number(data.source))) out.push({ ...event, data: safeIncremental(data, seen) });
    } else {
      out.push({ ...event, data });
    }
  }
  return out;
}
