/** The access policy (functions/projects/access.ts): the one place that decides who may do what to a project. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '#runtime/errors';
import {
  accessCondition,
  authorize,
  mayDo,
  projectActions,
  projectFor,
} from '../../../functions/projects/access';
import { projectKey } from '../../../functions/projects/project';

const ddb = mockClient(DynamoDBDocumentClient);
const projectId = '0f8fad5b-d9cb-469f-a165-70867728950e';
const owner = 'user-owner';
const other = 'user-other';
const meta = { ...projectKey(projectId), id: projectId, ownerId: owner, openCount: 3 };

const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return err instanceof AppError ? err.code : err;
  }
  return 'allowed';
};

afterEach(() => ddb.reset());

describe('access policy', () => {
  it.each(projectActions)('lets the owner %s the project and answers it back', (action) => {
    expect(mayDo(owner, meta, action)).toBe(true);
    expect(authorize(owner, meta, action)).toBe(meta);
  });

  it.each(projectActions)('refuses another client to %s the project with NOT_FOUND', (action) => {
    expect(mayDo(other, meta, action)).toBe(false);
    expect(refusal(() => authorize(other, meta, action))).toBe('NOT_FOUND');
  });

  it('answers no project, and a project without an owner, as NOT_FOUND (the same as someone else’s)', () => {
    expect(refusal(() => authorize(owner, undefined, 'read'))).toBe('NOT_FOUND');
    expect(refusal(() => authorize(owner, null, 'read'))).toBe('NOT_FOUND');
    expect(refusal(() => authorize(owner, { id: projectId } as { ownerId?: unknown }, 'read'))).toBe(
      'NOT_FOUND',
    );
    // An empty caller id never matches a missing owner.
    expect(refusal(() => authorize('', { ownerId: undefined }, 'read'))).toBe('NOT_FOUND');
  });

  it('loads META with one consistent GetItem and checks it', async () => {
    ddb.on(GetCommand).resolves({ Item: meta });
    expect(await projectFor(owner, projectId, 'read')).toEqual(meta);
    await expect(projectFor(other, projectId, 'triage')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const calls = ddb.commandCalls(GetCommand).map((c) => c.args[0].input);
    expect(calls).toHaveLength(2);
    expect(calls[0]).toMatchObject({ Key: projectKey(projectId), ConsistentRead: true });
    ddb.on(GetCommand).resolves({});
    await expect(projectFor(owner, projectId, 'read')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('is the only code that compares a project’s owner with the caller', () => {
    const root = fileURLToPath(new URL('../../../functions/', import.meta.url));
    const sources = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter(
      (f) => f.endsWith('.ts') && !f.endsWith(join('projects', 'access.ts')),
    );
    expect(sources.length).toBeGreaterThan(50);
    const decides = /ownerId\s*[!=]==|[!=]==\s*[\w.]*ownerId|ownerId = :uid/;
    const offenders = sources.filter((f) => decides.test(readFileSync(join(root, f), 'utf8')));
    expect(offenders).toEqual([]);
  });

  it.each(projectActions)('conditions a %s write on the caller being the owner', (action) => {
    expect(accessCondition(owner, action)).toEqual({
      expression: 'ownerId = :uid',
      values: { ':uid': owner },
    });
  });
});
