/** @jsxImportSource preact */
/** Line icons (24 × 24, stroked with currentColor), decorative: the buttons carry the labels. */

export const icons = {
  close: 'M6 6l12 12M18 6 6 18',
  camera: 'M4 8h3l2-3h6l2 3h3v11H4zM12 16.5a3.5 3.5 0 1 0 0-7 3.5 3.5 0 0 0 0 7z',
  screen: 'M3 4h18v12H3zM8 20h8M12 16v4',
  record: 'M12 19a7 7 0 1 0 0-14 7 7 0 0 0 0 14zM12 14a2 2 0 1 0 0-4 2 2 0 0 0 0 4z',
  stop: 'M7 7h10v10H7z',
  clip: 'M20 11.5l-8 8a5 5 0 0 1-7-7l8.5-8.5a3.5 3.5 0 0 1 5 5L10 17.5a2 2 0 0 1-3-3L15 7',
  check: 'M5 12.5l4.5 4.5L19 7',
  undo: 'M9 14 4 9l5-5M4 9h10a6 6 0 0 1 0 12h-3',
  redo: 'M15 14l5-5-5-5M20 9H10a6 6 0 0 0 0 12h3',
  trash: 'M4 7h16M10 11v6M14 11v6M6 7l1 13h10l1-13M9 7V4h6v3',
  select: 'M5 3l6 16 2-6.5L19.5 10z',
  rect: 'M4 6h16v12H4z',
  arrow: 'M5 19 19 5M10 5h9v9',
  pen: 'M3 18c2-4 4-9 6.5-6S12 18 15 14s3.5-8 6-6',
  text: 'M5 7V4h14v3M12 4v16M9 20h6',
  blur: 'M3 3l18 18M10.6 5.1Q11.3 5 12 5c5 0 9 5 10 7a15 15 0 0 1-3 3.9M6.6 6.6A15 15 0 0 0 2 12c1 2 5 7 10 7q2.9 0 5.4-1.6M9.9 9.9a3 3 0 0 0 4.2 4.2',
  crop: 'M6 2v14a2 2 0 0 0 2 2h14M2 6h14a2 2 0 0 1 2 2v14',
} as const;

export function Icon({ name }: { name: keyof typeof icons }) {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true">
      <path d={icons[name]} />
    </svg>
  );
}
