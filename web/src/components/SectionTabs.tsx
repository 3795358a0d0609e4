/**
 * The row of section tabs on the configuration and integration screens. One row in every language and
 * width: on a narrow phone the row scrolls sideways rather than wrapping, and the selected tab is scrolled
 * into view, so that `/profile/integrations/{id}/webhooks` opened on a phone shows "Webhooks" selected
 * rather than a row cut off before it. An edge behind which more tabs hide fades out (`data-more`), so a tab
 * cut at the edge reads as "the row goes on", not as a broken label.
 */
import { Tabs } from '@mantine/core';
import { useCallback, useEffect, useRef, useState } from 'react';

/** Which ends of a scrolling row have more behind them. */
export type MoreAt = 'none' | 'start' | 'end' | 'both';

export function moreAt(scrollLeft: number, clientWidth: number, scrollWidth: number): MoreAt {
  const start = scrollLeft > 1;
  const end = scrollLeft + clientWidth < scrollWidth - 1;
  return start && end ? 'both' : start ? 'start' : end ? 'end' : 'none';
}

const FADE = '24px';
const masks: Record<MoreAt, string | undefined> = {
  none: undefined,
  start: `linear-gradient(to right, transparent, #000 ${FADE})`,
  end: `linear-gradient(to left, transparent, #000 ${FADE})`,
  both: `linear-gradient(to right, transparent, #000 ${FADE}, #000 calc(100% - ${FADE}), transparent)`,
};

export function SectionTabs<T extends string>({
  value,
  sections,
  label,
  labelOf,
  onChange,
  keepMounted,
}: {
  value: T;
  sections: readonly T[];
  /** The accessible name of the tab list. */
  label: string;
  labelOf: (section: T) => string;
  onChange: (section: T) => void;
  keepMounted?: boolean;
}) {
  const list = useRef<HTMLDivElement>(null);
  const [more, setMore] = useState<MoreAt>('none');
  const measure = useCallback(() => {
    const row = list.current;
    if (row) setMore(moreAt(row.scrollLeft, row.clientWidth, row.scrollWidth));
  }, []);
  useEffect(() => {
    const row = list.current;
    if (!row) return;
    const observer = new ResizeObserver(measure);
    observer.observe(row);
    return () => observer.disconnect();
  }, [measure]);
  useEffect(() => {
    const row = list.current;
    const selected = row?.querySelector<HTMLElement>(`[data-section="${value}"]`);
    if (!row || !selected) return;
    // Scrolls the row only, never the page (scrollIntoView would move the page too).
    const r = row.getBoundingClientRect();
    const tab = selected.getBoundingClientRect();
    if (tab.right > r.right) row.scrollLeft += tab.right - r.right;
    else if (tab.left < r.left) row.scrollLeft -= r.left - tab.left;
    measure();
  }, [value, measure]);
  return (
    <Tabs value={value} onChange={(v) => v && onChange(v as T)} keepMounted={keepMounted}>
      <Tabs.List
        ref={list}
        aria-label={label}
        data-more={more}
        onScroll={measure}
        style={{
          flexWrap: 'nowrap',
          overflowX: 'auto',
          overflowY: 'hidden',
          scrollbarWidth: 'none',
          maskImage: masks[more],
        }}
      >
        {sections.map((s) => (
          <Tabs.Tab key={s} value={s} data-section={s} fw={600} style={{ flex: 'none' }}>
            {labelOf(s)}
          </Tabs.Tab>
        ))}
      </Tabs.List>
    </Tabs>
  );
}
