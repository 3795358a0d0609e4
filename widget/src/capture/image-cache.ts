/**
 * Images for the screenshot, as data URLs, kept for the page's lifetime: a report may hold five
 * screenshots of the same page, and fetching and base64-encoding every visible image again is most of a
 * repeated capture's cost. Bounded, so a long-lived single-page app cannot grow it without end.
 * An image the page's origin may not read (cross-origin without CORS) becomes the placeholder: fetching
 * it is refused, and drawing it would taint the canvas.
 */
const cache = new Map<string, Promise<string>>();
let cachedChars = 0;
/** About 24 MB of UTF-16 text. */
const MAX_CHARS = 12_000_000;

function asDataUrl(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(blob);
  });
}

async function load(url: string, placeholder: string): Promise<string> {
  try {
    const res = await fetch(url, { cache: 'force-cache', credentials: 'same-origin' });
    if (!res.ok) return placeholder;
    const data = await asDataUrl(await res.blob());
    cachedChars += data.length;
    return data;
  } catch {
    return placeholder;
  }
}

/** A `fetchFn` for modern-screenshot: the image at `url` as a data URL, from the cache when it can. */
export function imageFetcher(placeholder: string): (url: string) => Promise<string> {
  return (url) => {
    if (url.startsWith('data:')) return Promise.resolve(url);
    let hit = cache.get(url);
    if (!hit) {
      if (cachedChars > MAX_CHARS) {
        cache.clear();
        cachedChars = 0;
      }
      hit = load(url, placeholder);
      cache.set(url, hit); // Failures too: a cross-origin image stays unreadable, and each try logs an error.
    }
    return hit;
  };
}
