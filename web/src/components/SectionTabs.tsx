/**
 * The row of section tabs on the configuration and integration screens. One row in every language and
 * width: on a narrow phone the row scrolls sideways rather than wrapping, and the selected tab is scrolled
 * into view, so that `/profile/integrations/{id}/webhooks` opened on a phone shows "Webhooks" selected
 * rather than a row cut off before it.
 */
import { Tabs } from '@mantine/core';
import { useEffect, useRef } from 'react';

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
  useEffect(() => {
    const row = list.current;
    const selected = row?.querySelector<HTMLElement>(`[data-section="${value}"]`);
    if (!row || !selected) return;
    // Scrolls the row only, never the page (scrollIntoView would move the page too).
    const r = row.getBoundingClientRect();
    const tab = selected.getBoundingClientRect();
    if (tab.right > r.right) row.scrollLeft += tab.right - r.right;
    else if (tab.left < r.left) row.scrollLeft -= r.left - tab.left;
  }, [value]);
  return (
    <Tabs value={value} onChange={(v) => v && onChange(v as T)} keepMounted={keepMounted}>
      <Tabs.List
        ref={list}
        aria-label={label}
        style={{ flexWrap: 'nowrap', overflowX: 'auto', overflowY: 'hidden', scrollbarWidth: 'none' }}
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
