/**
 * The tracker fakes' reading of fences (lib/local/vendors/markdown.ts): what they treat as live text
 * decides whether the quoting tests can see a mention or quick action escape Snag's fence.
 */
import { describe, expect, it } from 'vitest';
import { linesOutsideFences } from '../../../lib/local/vendors/markdown';

describe('linesOutsideFences', () => {
  it('keeps the lines outside fences and drops the fences and what they hold', () => {
    expect(linesOutsideFences('a\n```\n@x\n```\nb\r\n~~~text\n/close\n~~~\nc')).toEqual(['a', 'b', 'c']);
  });

  it('a fence closes only with the same character, at least as long, alone on its line', () => {
    const inside = ['~~~~~', '@a', '```', '@b', '````x', '@c'];
    expect(linesOutsideFences(['````', ...inside, '`````', 'live'].join('\n'))).toEqual(['live']);
  });

  it('an unclosed fence runs to the end; four spaces of indent open none', () => {
    expect(linesOutsideFences('a\n```\n@x')).toEqual(['a']);
    expect(linesOutsideFences('    ```\n@x')).toEqual(['    ```', '@x']);
  });
});
