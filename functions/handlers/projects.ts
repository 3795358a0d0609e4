/** The signed-in client's projects: client/website and client/website/{id} (SPEC.md section 7). */
import type * as z from 'zod';
import { TEAM_COOKIE } from '#contracts/cookies';
import type { projectSchema } from '#contracts/schemas';
import { AppError } from '#runtime/errors';
import { type AuthedInput, type InputOf, type OpName, resourceHandler } from '#runtime/http';
import { readCookie } from '#runtime/session';
import { toUser } from '../accounts/user';
import { integrationsAnswer, ownerNotification, readOwnedIntegrations } from '../integrations/integration';
import type { ProjectAction } from '../projects/access';
import { projectsApi } from '../projects/manifest';
import { ownerPlanOf, planOf } from '../projects/project';
import * as projects from '../projects/service';

/** What the pipeline hands an operation: params and body as the route's schemas produced them. */
type In<Op extends OpName<typeof projectsApi>> = InputOf<typeof projectsApi, Op>;

/**
 * The project, its owner and its six integrations in the one BatchGetItem of A30: the detail answer is the
 * project's view with the integrations' (masked), composed here because integrations rank above projects.
 */
async function readDetail(userId: string, id: string, action: ProjectAction) {
  const { project, owner, integrations } = await readOwnedIntegrations(id, userId, action);
  if (!owner) throw new AppError('UNAUTHORIZED');
  const user = toUser(owner);
  // The team's plan, as META's copy carries it (issue 22: the plan is the team's, not the reader's).
  return {
    project,
    user,
    integrations: () => integrationsAnswer(integrations, planOf(ownerPlanOf(project))),
  };
}

export const operations = {
  async list({ session }: AuthedInput) {
    return { msg: await projects.list(session.userId) };
  },
  async create({ session, body, lang, event }: AuthedInput<z.infer<typeof projectSchema>>) {
    // The creator hears of new reports by email from the first one (an opt-out): the email integration is
    // written in the project's creation transaction. The team: `teamId`, else the team in use (issue 22).
    const { teamId, ...input } = body;
    const choice = { requested: teamId, cookie: readCookie(event, TEAM_COOKIE) };
    const msg = await projects.create(session.userId, choice, input, lang, (creator) =>
      ownerNotification(creator.email),
    );
    return { msg, statusCode: 201 };
  },
  async get({ session, params }: In<'get'>) {
    const { project, user, integrations } = await readDetail(session.userId, params.id, 'read');
    return { msg: { ...projects.detailView(project, user), integrations: integrations() } };
  },
  async update({ session, params, body }: In<'update'>) {
    // Read in the same batch as GET: the answer is GET's, integrations included.
    const { project, user, integrations } = await readDetail(session.userId, params.id, 'settings');
    const detail = await projects.update(session.userId, project, user, body);
    return { msg: { ...detail, integrations: integrations() } };
  },
  async remove({ session, params }: In<'remove'>) {
    await projects.remove(session.userId, params.id);
    return { msg: null };
  },
};

export const handler = resourceHandler(projectsApi, operations);
