import { describe, expect, it } from 'vitest';
import { durationParts, shortDay } from '../../../web/src/insights/model';
import { paths, projectIdFromPath, sidebarSection } from '../../../web/src/paths';

describe('insights model', () => {
  it('reads a duration in the largest unit that keeps it readable', () => {
    expect(durationParts(30)).toEqual({ unit: 'minutes', count: 1 });
    expect(durationParts(45 * 60)).toEqual({ unit: 'minutes', count: 45 });
    expect(durationParts(3 * 3600)).toEqual({ unit: 'hours', count: 3 });
    expect(durationParts(47 * 3600)).toEqual({ unit: 'hours', count: 47 });
    expect(durationParts(10 * 86_400)).toEqual({ unit: 'days', count: 10 });
  });

  it('shows a counter day as that UTC day in the reader language', () => {
    expect(shortDay('2026-11-03', 'en')).toBe('Nov 3');
    expect(shortDay('2026-11-03', 'de')).toBe('3. Nov.');
    expect(shortDay('nonsense', 'en')).toBe('nonsense');
  });

  it("puts a project's Insights in the project's sidebar", () => {
    expect(sidebarSection(paths.insights('p1'))).toBe('insights');
    expect(projectIdFromPath(paths.insights('p1'))).toBe('p1');
  });
});
