/** The timeline's link to a tracker issue (issue 24, web/src/issues/detail-model.ts `trackerLinkOf`). */
import { describe, expect, it } from 'vitest';
import { trackerLinkOf } from '../../../web/src/issues/detail-model';

describe('the tracker link of a synced change', () => {
  it('links a tracker actor’s http(s) address, and nothing else', () => {
    const url = 'https://gitlab.com/acme/web/-/issues/7';
    expect(trackerLinkOf({ kind: 'tracker', vendor: 'gitlab', name: 'Jane on GitLab', url })).toEqual({
      url,
      vendor: 'gitlab',
    });
    // The address came in a webhook: a script or data URL is never a link.
    for (const bad of ['javascript:alert(1)', 'data:text/html,x', '//evil.example', ''])
      expect(trackerLinkOf({ kind: 'tracker', vendor: 'gitlab', name: 'x', url: bad })).toBeNull();
    expect(trackerLinkOf({ kind: 'member', name: 'Ann', url })).toBeNull();
    expect(trackerLinkOf({ kind: 'tracker', vendor: 'jira', name: 'Jane on Jira' })).toBeNull();
  });
});
