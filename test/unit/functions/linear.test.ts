/**
 * Linear's pure rules: the visitor's text stays inert in the Markdown (a fence or code span the text
 * cannot close), the repeatable issue id, the recorded reference, and the state chosen to close or reopen.
 */
import { describe, expect, it } from 'vitest';
import { linearCode, linearFenced, linearIssueId } from '../../../functions/integrations/deliverers/linear';
import {
  isClosedState,
  linearVendorId,
  parseLinearVendorId,
  stateFor,
} from '../../../functions/integrations/vendors/linear';
import { linearMarkdownActs } from '../../../lib/local/vendors/linear';

describe('Linear Markdown', () => {
  it('a fence outlasts every backtick run in the text, so nothing after it is parsed', () => {
    const text = 'a\n````\n@all ENG-1\n`````';
    const md = linearFenced(text);
    expect(md.startsWith('``````text\n')).toBe(true);
    expect(linearMarkdownActs(`${md}\n`)).toEqual({ mentions: [], references: [], images: [] });
    // Without the fence the same text would notify and link.
    expect(linearMarkdownActs('@all ENG-1').mentions).toEqual(['@all']);
  });

  it('a code span holds a value with backticks and line breaks on one line', () => {
    expect(linearCode('a `b` @c\nOPS-2')).toBe('`` a `b` @c OPS-2 ``');
    expect(linearMarkdownActs(`- **Note:** ${linearCode('a `b` @c\nOPS-2')}`)).toEqual({
      mentions: [],
      references: [],
      images: [],
    });
  });
});

describe('Linear ids and states', () => {
  it('derives one UUID v4 per delivery and team', () => {
    const a = linearIssueId('p:1:linear', 'team-a');
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(linearIssueId('p:1:linear', 'team-a')).toBe(a);
    expect(linearIssueId('p:1:linear', 'team-b')).not.toBe(a);
    expect(linearIssueId('p:2:linear', 'team-a')).not.toBe(a);
  });

  it('records id, identifier and URL in one value and reads them back', () => {
    const ref = { id: 'u-1', identifier: 'ENG-7', url: 'https://linear.app/o/issue/ENG-7/x' };
    expect(parseLinearVendorId(linearVendorId(ref))).toEqual(ref);
    expect(parseLinearVendorId('ENG-7')).toBeNull();
  });

  it('closes to completed (else canceled) and reopens to unstarted (else backlog, else started)', () => {
    const s = (type: string, position: number) => ({ id: type, name: type, type, position });
    const all = [s('backlog', 0), s('unstarted', 1), s('started', 2), s('completed', 3), s('canceled', 4)];
    expect(stateFor(all, false)?.type).toBe('completed');
    expect(stateFor(all, true)?.type).toBe('unstarted');
    expect(stateFor([s('started', 0), s('canceled', 1)], false)?.type).toBe('canceled');
    expect(stateFor([s('started', 0), s('canceled', 1)], true)?.type).toBe('started');
    expect(stateFor([s('backlog', 0)], false)).toBeNull();
    expect([isClosedState('completed'), isClosedState('canceled'), isClosedState('started')]).toEqual([
      true,
      true,
      false,
    ]);
  });
});
