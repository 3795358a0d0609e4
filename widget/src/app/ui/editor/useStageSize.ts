import type { RefObject } from 'preact';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';

/** The room the picture has on the stage (its box less 12 px padding each side), kept up to date on resize. */
export function useStageSize(): [RefObject<HTMLDivElement | null>, { w: number; h: number }] {
  const stage = useRef<HTMLDivElement>(null);
  const [size, setSize] = useState({ w: 0, h: 0 });
  useLayoutEffect(() => {
    const el = stage.current!;
    const measure = () => setSize({ w: el.clientWidth - 24, h: el.clientHeight - 24 });
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  return [stage, size];
}
