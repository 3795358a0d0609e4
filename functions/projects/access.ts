/**
 * Who may do what to a project: the one place that decides (DESIGN.md section 10). Every project-scoped
 * operation names its action and asks here; nothing else compares a project's owner with the caller.
 * Today every action is the owner's alone; the teams issue gives members roles in `rules`. Whoever may
 * not gets NOT_FOUND, the same answer as for no project at all, so an id reveals nothing about another
 * client's projects.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '#runtime/aws/dynamo';
import { tableName } from '#runtime/db';
import { AppError } from '#runtime/errors';
import { projectKey } from './project';

/**
 * read: the project, its issues, files and sync lists · triage: resolve and reopen issues, send them to
 * integrations again (Sync) · settings: the project's own settings · integrations: set up and authorise
 * integrations · delete: the project with everything it owns.
 */
export const projectActions = ['read', 'triage', 'settings', 'integrations', 'delete'] as const;
export type ProjectAction = (typeof projectActions)[number];

/** Who may do each action. */
const rules: Record<ProjectAction, 'owner'> = {
  read: 'owner',
  triage: 'owner',
  settings: 'owner',
  integrations: 'owner',
  delete: 'owner',
};

/** What the policy reads of a stored project (META): its owner. */
export interface AccessFacts {
  ownerId?: unknown;
}

export function mayDo(userId: string, project: AccessFacts, action: ProjectAction): boolean {
  return rules[action] === 'owner' && typeof project.ownerId === 'string' && project.ownerId === userId;
}

/** The project (as read, stored item or entity) if `userId` may do `action` on it; NOT_FOUND otherwise. */
export function authorize<T extends AccessFacts>(
  userId: string,
  project: T | null | undefined,
  action: ProjectAction,
): T {
  if (!project || !mayDo(userId, project, action)) throw new AppError('NOT_FOUND');
  return project;
}

/**
 * The project's stored META item (one consistent GetItem) if `userId` may do `action` on it. Calls that
 * need more than META read it in their own batch and call `authorize` on it (DESIGN.md section 7).
 */
export async function projectFor(
  userId: string,
  projectId: string,
  action: ProjectAction,
): Promise<Record<string, unknown>> {
  const out = await db().send(
    new GetCommand({ TableName: tableName(), Key: projectKey(projectId), ConsistentRead: true }),
  );
  return authorize(userId, out.Item, action);
}

/** A DynamoDB condition on the project's META item; `values` go into ExpressionAttributeValues. */
export interface AccessCondition {
  expression: string;
  values: Record<string, unknown>;
}

/**
 * The condition that makes a write to META its own check (no read before it): it holds only while
 * `userId` may do `action`. A failed condition is the caller's NOT_FOUND.
 */
export function accessCondition(userId: string, _action: ProjectAction): AccessCondition {
  return { expression: 'ownerId = :uid', values: { ':uid': userId } };
}
