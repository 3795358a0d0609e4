/**
 * Requests about a person's data (issues/data-requests.ts): find, export and erase what a reporter sent to
 * the team. OWNER and ADMIN only, through the one policy's `team.audit`; a MEMBER or GUEST is refused, an
 * outsider finds nothing (404).
 */
import type { DataExportStatus, DataRequestIssue } from '#contracts/data-requests';
import { AppError } from '#runtime/errors';
import { type InputOf, type OpName, resourceHandler } from '#runtime/http';
import { userKey } from '../accounts/user';
import { erase, exportStatus, lookup, memberIdOf, startExport } from '../issues/data-requests';
import { authorizeTeam, membershipOf } from '../projects/access';
import { memberActor } from '../teams/audit';
import { privacyApi } from '../teams/manifest';
import { factsOf } from '../teams/team';

type In<Op extends OpName<typeof privacyApi>> = InputOf<typeof privacyApi, Op>;

/** The check, and the acting member as the audit log names them. */
async function authorized({ session, params }: In<OpName<typeof privacyApi>>) {
  const {
    teams,
    items: [user],
  } = await factsOf(session.userId, [userKey(session.userId)]);
  authorizeTeam(membershipOf(teams, params.teamId), 'team.audit');
  return memberActor(session.userId, user);
}

export const operations = {
  async lookup(input: In<'lookup'>): Promise<{ msg: { issues: DataRequestIssue[]; member: boolean } }> {
    await authorized(input);
    const { teamId } = input.params;
    const [issues, memberId] = await Promise.all([
      lookup(teamId, input.body.email),
      memberIdOf(teamId, input.body.email),
    ]);
    // A member of the team: the export also holds the comments they wrote (decision DR-8).
    return { msg: { issues, member: memberId !== null } };
  },
  async startExport(input: In<'startExport'>): Promise<{ msg: { id: string }; statusCode: number }> {
    const actor = await authorized(input);
    return { msg: { id: await startExport(input.params.teamId, input.body.email, actor) }, statusCode: 202 };
  },
  async exportStatus(input: In<'exportStatus'>): Promise<{ msg: DataExportStatus }> {
    await authorized(input);
    const status = await exportStatus(input.params.teamId, input.params.id);
    if (!status) throw new AppError('DATA_EXPORT_NOT_FOUND');
    return { msg: status };
  },
  async erase(input: In<'erase'>): Promise<{ msg: { erased: number } }> {
    const actor = await authorized(input);
    if (input.body.confirm !== input.body.email) throw new AppError('ERASE_CONFIRM_MISMATCH');
    return { msg: { erased: await erase(input.params.teamId, input.body.email, actor) } };
  },
};

export const handler = resourceHandler(privacyApi, operations);
