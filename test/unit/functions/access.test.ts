/** The access policy (functions/projects/access.ts): the one place that decides who may do what to a project. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BatchGetCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { projectActionOf, requestAccess, teamActionOf } from '#contracts/access';
import type { Role } from '#contracts/teams';
import { AppError } from '#runtime/errors';
import {
  accessGuard,
  authorize,
  type Caller,
  may,
  type ProjectAction,
  projectActions,
  projectFor,
} from '../../../functions/projects/access';
import { projectKey } from '../../../functions/projects/project';
import { teamsKey } from '../../../functions/teams/member';

const ddb = mockClient(DynamoDBDocumentClient);
const projectId = '0f8fad5b-d9cb-469f-a165-70867728950e';
const otherProject = '1f8fad5b-d9cb-469f-a165-70867728950e';
const team = 'team-1';
const meta = { ...projectKey(projectId), id: projectId, teamId: team, ownerId: 'creator', openCount: 3 };
/** A project written before teams: no teamId, its team is its owner's personal team (T2). */
const preTeam = { ...projectKey(projectId), id: projectId, ownerId: 'owner-uid' };

const as = (role: Role, projects?: string[], teamId = team): Caller => ({
  userId: `u-${role}`,
  teams: { teams: { [teamId]: projects ? { r: role, p: projects } : { r: role } } },
});

const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return err instanceof AppError ? err.code : err;
  }
  return 'allowed';
};

afterEach(() => ddb.reset());

/** docs/data-model.md 4.12 "Roles and actions", written out (not derived from the policy). */
const expected: Record<ProjectAction, string> = {
  read: 'OWNER ADMIN MEMBER GUEST',
  triage: 'OWNER ADMIN MEMBER',
  settings: 'OWNER ADMIN',
  integrations: 'OWNER ADMIN',
  delete: 'OWNER ADMIN',
  labels: 'OWNER ADMIN',
  comment: 'OWNER ADMIN MEMBER GUEST',
  internal: 'OWNER ADMIN MEMBER',
  moderate: 'OWNER ADMIN',
  report: 'OWNER ADMIN MEMBER GUEST',
};
const roles: Role[] = ['OWNER', 'ADMIN', 'MEMBER', 'GUEST'];

describe('access policy, project half', () => {
  it.each(projectActions)('%s: the roles of 4.12 may, the others are FORBIDDEN', (action) => {
    expect(roles.filter((r) => may(r, action)).join(' ')).toBe(expected[action]);
    for (const role of roles) {
      const caller = as(role, role === 'GUEST' ? [projectId] : undefined);
      const answer = refusal(() => authorize(caller, meta, action));
      if (expected[action].split(' ').includes(role)) {
        expect(answer).toBe('allowed');
        expect(authorize(caller, meta, action)).toEqual({ ...meta, role });
      } else expect(answer).toBe('FORBIDDEN');
    }
  });

  it('a GUEST sees only the projects in its list: another project of its team is NOT_FOUND (T5)', () => {
    expect(refusal(() => authorize(as('GUEST', [otherProject]), meta, 'read'))).toBe('NOT_FOUND');
    expect(refusal(() => authorize(as('GUEST', []), meta, 'triage'))).toBe('NOT_FOUND');
    expect(refusal(() => authorize(as('GUEST'), meta, 'read'))).toBe('NOT_FOUND');
  });

  it('no membership of the project’s team is NOT_FOUND, whatever the role elsewhere', () => {
    for (const action of projectActions) {
      expect(refusal(() => authorize(as('OWNER', undefined, 'another-team'), meta, action))).toBe(
        'NOT_FOUND',
      );
      expect(refusal(() => authorize({ userId: 'x', teams: null }, meta, action))).toBe('NOT_FOUND');
    }
  });

  it('answers no project, and a project without team or owner, as NOT_FOUND', () => {
    const owner = as('OWNER');
    expect(refusal(() => authorize(owner, undefined, 'read'))).toBe('NOT_FOUND');
    expect(refusal(() => authorize(owner, null, 'read'))).toBe('NOT_FOUND');
    expect(refusal(() => authorize(owner, { id: projectId }, 'read'))).toBe('NOT_FOUND');
    // An empty team id never matches a membership keyed ''.
    expect(
      refusal(() => authorize({ userId: '', teams: { teams: { '': { r: 'OWNER' } } } }, { id: 1 }, 'read')),
    ).toBe('NOT_FOUND');
  });

  it('a project written before teams belongs to its owner’s personal team (tid = ownerId)', () => {
    expect(authorize(as('OWNER', undefined, 'owner-uid'), preTeam, 'delete').role).toBe('OWNER');
    expect(refusal(() => authorize(as('OWNER'), preTeam, 'read'))).toBe('NOT_FOUND');
  });

  it('reads META and the caller’s TEAMS in ONE consistent BatchGetItem and checks them', async () => {
    const caller = as('MEMBER');
    const teamsItem = { ...teamsKey(caller.userId), ...caller.teams };
    ddb.on(BatchGetCommand).resolves({ Responses: { 'snag-unit': [meta, teamsItem] } });
    expect(await projectFor(caller.userId, projectId, 'triage')).toEqual({ ...meta, role: 'MEMBER' });
    await expect(projectFor(caller.userId, projectId, 'settings')).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    const calls = ddb
      .commandCalls(BatchGetCommand)
      .map((c) => Object.values(c.args[0].input.RequestItems ?? {})[0]);
    expect(calls).toHaveLength(2);
    expect(calls[0]).toEqual({
      Keys: [projectKey(projectId), teamsKey(caller.userId)],
      ConsistentRead: true,
    });
    ddb.on(BatchGetCommand).resolves({ Responses: { 'snag-unit': [teamsItem] } });
    await expect(projectFor(caller.userId, projectId, 'read')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('is the only code that compares a project’s owner with the caller', () => {
    const root = fileURLToPath(new URL('../../../functions/', import.meta.url));
    const sources = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter(
      (f) => f.endsWith('.ts') && !f.endsWith(join('projects', 'access.ts')),
    );
    expect(sources.length).toBeGreaterThan(50);
    // `typeof x.ownerId === 'string'` reads the field's type, it decides nothing (teams/member.ts teamOf).
    // The policy's role condition is `teams.#tid.r IN (:r0, …)`; a transfer's condition on the target's own
    // role (`IN (:admin, :member)`, teams/membership.ts) is a state check of the target, not a caller's access.
    const decides =
      /(?<!typeof\s+[\w.]*)ownerId\s*[!=]==|[!=]==\s*[\w.]*ownerId|ownerId = :uid|teams\.#tid\.r IN \(:r0/;
    const offenders = sources.filter((f) => decides.test(readFileSync(join(root, f), 'utf8')));
    expect(offenders).toEqual([]);
  });

  it('guards a write on META’s team and a ConditionCheck of the caller’s role in the caller’s TEAMS (T4)', () => {
    const guard = accessGuard(as('ADMIN'), team, 'settings', projectId);
    expect(guard.expression).toBe('(teamId = :tid OR (attribute_not_exists(teamId) AND ownerId = :tid))');
    expect(guard.values).toEqual({ ':tid': team });
    expect(guard.checks).toEqual([
      {
        ConditionCheck: expect.objectContaining({
          Key: teamsKey('u-ADMIN'),
          ConditionExpression: 'teams.#tid.r IN (:r0, :r1)',
          ExpressionAttributeNames: { '#tid': team },
          ExpressionAttributeValues: { ':r0': 'OWNER', ':r1': 'ADMIN' },
        }),
      },
    ]);
    // Where a GUEST may act, only on the projects in its list.
    const read = accessGuard(as('GUEST', [projectId]), team, 'read', projectId).checks?.[0]?.ConditionCheck;
    expect(read?.ConditionExpression).toBe(
      'teams.#tid.r IN (:r0, :r1, :r2, :r3) AND (teams.#tid.r <> :guest OR contains(teams.#tid.p, :pid))',
    );
    expect(read?.ExpressionAttributeValues).toMatchObject({ ':guest': 'GUEST', ':pid': projectId });
  });
});

describe('a route’s access as one request asks for it (contracts/access.ts)', () => {
  const list = {
    scope: 'project',
    action: 'read',
    from: 'params.id',
    queryActions: { integration: 'triage' },
  } as const;

  it('is the declared action, or the one a present query parameter names', () => {
    expect(requestAccess(list, {})).toEqual({ scope: 'project', action: 'read', from: 'params.id' });
    expect(requestAccess(list, { page: 2 })).toMatchObject({ action: 'read' });
    expect(requestAccess(list, { integration: 'email' })).toMatchObject({ action: 'triage' });
    expect(requestAccess(list, { integration: '' })).toMatchObject({ action: 'read' });
  });

  it('is account without a declaration (public routes), and a project action only on a project route', () => {
    expect(requestAccess(undefined, {})).toEqual({ scope: 'account' });
    expect(projectActionOf(requestAccess(list, {}))).toBe('read');
    expect(() => projectActionOf({ scope: 'account' })).toThrow();
    expect(teamActionOf({ scope: 'team', action: 'team.read', from: 'teamInUse' })).toBe('team.read');
    expect(() => teamActionOf(requestAccess(list, {}))).toThrow();
  });
});
