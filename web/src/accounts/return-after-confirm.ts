/**
 * The page a new user wanted when they registered (the `next` of /registration, e.g. the browser
 * extension's connect page with its challenge and state), kept in this browser until the emailed
 * confirmation link is opened: that link is made by the server and carries no `next`, and it opens in a new
 * tab where the registration tab's address is out of reach. Only this browser can finish what was started
 * in it (the extension that waits for the connect page lives here), so the browser's own storage is the
 * right place; a link opened elsewhere simply signs in to the projects. Decision EXT-C9.
 */
import { safeNext } from '../paths';

const key = 'snag.afterConfirm';
/** Older than this, a remembered page is stale (the extension's connect attempt is long gone). */
const maxAgeMs = 24 * 60 * 60 * 1000;

interface Remembered {
  username: string;
  next: string;
  at: number;
}

/** Remembers `next` for `username` (lowercase, as the server registered it); a safe path only. */
export function rememberReturn(username: string, next: string | null): void {
  const safe = next ? safeNext(`?next=${encodeURIComponent(next)}`) : null;
  try {
    if (!safe) localStorage.removeItem(key);
    else
      localStorage.setItem(
        key,
        JSON.stringify({ username: username.toLowerCase(), next: safe, at: Date.now() } satisfies Remembered),
      );
  } catch {
    // Storage refused (private mode, full): the user signs in to the projects instead.
  }
}

/** The remembered page for `username`, once: read and forgotten; null when none, another user's or stale. */
export function takeReturn(username: string): string | null {
  try {
    const raw = localStorage.getItem(key);
    if (!raw) return null;
    const r = JSON.parse(raw) as Partial<Remembered>;
    if (r.username !== username.toLowerCase()) return null;
    localStorage.removeItem(key);
    if (typeof r.at !== 'number' || Date.now() - r.at > maxAgeMs || typeof r.next !== 'string') return null;
    // Checked again on the way out: the storage is the page's, not ours alone.
    return safeNext(`?next=${encodeURIComponent(r.next)}`);
  } catch {
    return null;
  }
}
