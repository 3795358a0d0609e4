/**
 * Images for the screenshot, as data URLs, kept for the page's lifetime: a report may hold five
 * screenshots of the same page, and fetching and base64-encoding every visible image again is most of a
 * repeated capture's cost. Bounded, so a long-lived single-page app cannot grow it without end.
 * An image the page's origin may not read (cross-origin without CORS) becomes the placeholder: fetching
 * it is refused, and drawing it would taint the canvas. `countPlaceholders` tells how many other sites'
 * images one capture had to replace, so the editor can say why there are grey boxes.
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

/** Other origins' images replaced by the placeholder in the capture running now (captures never overlap). */
let replaced: Set<string> | null = null;

/**
 * Runs one capture and counts the distinct images from other origins it drew as the placeholder. A
 * same-origin image that fails is broken on the page too, so it is not counted: the note is about what
 * the screenshot could not copy, not about the page's own broken images.
 */
export async function countPlaceholders<T>(
  capture: () => Promise<T>,
): Promise<{ value: T; placeholders: number }> {
  const seen = new Set<string>();
  replaced = seen;
  try {
    return { value: await capture(), placeholders: seen.size };
  } finally {
    replaced = null;
  }
}

function isForeign(url: string): boolean {
  try {
    return new URL(url, location.href).origin !== location.origin;
  } catch {
    return false;
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
    const counting = replaced;
    if (!counting) return hit;
    // Counted before the capture gets the image, so the count is complete when the capture resolves.
    return hit.then((data) => {
      if (data === placeholder && isForeign(url)) counting.add(url);
      return data;
    });
  };
}
