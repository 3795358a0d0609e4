/**
 * Assigning oneself (issue 23), found by the list's browser test: the triage calls read the assignee's TEAMS
 * in the access check's BatchGetItem, which also holds the caller's, and BatchGetItem refuses a key twice
 * (the call answered 500). A member assigns themselves by bulk and by the single PATCH; a GUEST still cannot
 * be assigned.
 */
import { describe, expect, it } from 'vitest';
import { seedIssues } from '../support/issues';
import { join, person, projectOf } from '../support/members-teams';
import { setUpTestStack } from '../support/stack-fixture';
import { setTeamPlan } from '../support/teams';

const stack = setUpTestStack();

describe('assigning oneself', () => {
  it('works for a member by bulk and by PATCH; a GUEST is refused as an assignee', async () => {
    const owner = await person(stack.url);
    await setTeamPlan(owner.id, 'BUSINESS_PLAN', null);
    const projectId = await projectOf(owner.client);
    const member = await join(stack.url, owner.client, owner.id, 'MEMBER');
    const guest = await join(stack.url, owner.client, owner.id, 'GUEST', [projectId]);
    await seedIssues(projectId, 3);

    const bulk = await member.client.patch(`/api/client/website/${projectId}/requests`, {
      tickets: [1, 2],
      set: { assignee: member.id },
    });
    expect([bulk.status, bulk.body]).toEqual([200, { status: 'success', msg: { updated: [1, 2] } }]);
    const single = await owner.client.patch(`/api/client/website/${projectId}/request/3`, {
      assignee: owner.id,
    });
    expect(single.status).toBe(200);

    const mine = await member.client.get<{ requests: { number: number; assignee: string | null }[] }>(
      `/api/client/website/${projectId}/request?assignee=me`,
    );
    expect(
      (mine.body as { msg: { requests: { number: number }[] } }).msg.requests.map((r) => r.number),
    ).toEqual([2, 1]);

    const refused = await owner.client.patch(`/api/client/website/${projectId}/requests`, {
      tickets: [1],
      set: { assignee: guest.id },
    });
    expect(refused.status).toBe(400);
  });
});
