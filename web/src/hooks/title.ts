/** The browser tab's title for the screen on show (the hook every screen calls). */
import { useEffect } from 'react';

/** Sets the tab title to "<screen> · Snag" while the screen is shown. */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · Snag`;
  }, [title]);
}
