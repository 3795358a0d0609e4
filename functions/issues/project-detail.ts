/**
 * What a client needs to triage a project by name (REST v1 `getProject`, issue 25): its labels and the
 * people it may assign. The assignable rule is triage's own (`may(role, 'triage')`, checked again by every
 * PATCH), so the list never offers someone a PATCH would refuse.
 */
import type { V1ProjectDetail } from '#contracts/api-v1';
import { getItems } from '#runtime/db';
import { displayName, type User, userKey } from '../accounts/user';
import { may, type ProjectAction, readProjectAs } from '../projects/access';
import { teamOf } from '../teams/member';
import { readMembers } from '../teams/team';
import { labelsKey, labelsOf } from './labels';

/**
 * The project's META with its LABELS (the access check's one BatchGetItem), the team's members (a Query)
 * and their USER items (a BatchGetItem): 3 requests.
 */
export async function projectForTriage(
  userId: string,
  projectId: string,
  action: ProjectAction,
): Promise<{
  project: Record<string, unknown>;
  labels: V1ProjectDetail['labels'];
  assignees: V1ProjectDetail['assignees'];
}> {
  const {
    project,
    items: [labels],
  } = await readProjectAs(userId, projectId, action, [labelsKey(projectId)]);
  const { members } = await readMembers(teamOf(project as { teamId?: unknown }));
  const triagers = members.filter((m) => may(m.role, 'triage'));
  const users = triagers.length ? await getItems(triagers.map((m) => userKey(m.userId))) : [];
  const assignees = triagers.flatMap((m, i) => {
    const u = users[i];
    return u ? [{ id: m.userId, name: displayName(u as unknown as User), role: m.role }] : [];
  });
  assignees.sort((a, b) => a.name.localeCompare(b.name, 'en'));
  return { project, labels: labelsOf(labels), assignees };
}
