/** The signed-in client's projects: client/website and client/website/{id} (SPEC.md section 7). */
import type * as z from 'zod';
import { projectIdParam, type projectSchema, type projectUpdateSchema } from '#contracts/schemas';
import { AppError } from '#runtime/errors';
import { type AuthedInput, resourceHandler } from '#runtime/http';
import { toUser } from '../accounts/user';
import { integrationsAnswer, ownerNotification, readOwnedIntegrations } from '../integrations/integration';
import type { ProjectAction } from '../projects/access';
import { planOf } from '../projects/project';
import * as projects from '../projects/service';

/** A malformed id cannot name a project: the same 404 as someone else's. */
function projectId(params: Record<string, string>): string {
  const parsed = projectIdParam.safeParse(params.id);
  if (!parsed.success) throw new AppError('NOT_FOUND');
  return parsed.data;
}

/**
 * The project, its owner and its six integrations in the one BatchGetItem of A30: the detail answer is the
 * project's view with the integrations' (masked), composed here because integrations rank above projects.
 */
async function readDetail(userId: string, id: string, action: ProjectAction) {
  const { project, owner, integrations } = await readOwnedIntegrations(id, userId, action);
  if (!owner) throw new AppError('UNAUTHORIZED');
  const user = toUser(owner);
  return { project, user, integrations: () => integrationsAnswer(integrations, planOf(user)) };
}

export const operations = {
  async list({ session }: AuthedInput) {
    return { msg: await projects.list(session.userId) };
  },
  async create({ session, body, lang }: AuthedInput<z.infer<typeof projectSchema>>) {
    // The owner hears of new reports by email from the first one (an opt-out): the email integration is
    // written in the project's creation transaction.
    const msg = await projects.create(session.userId, body, lang, (owner) => ownerNotification(owner.email));
    return { msg, statusCode: 201 };
  },
  async get({ session, params }: AuthedInput) {
    const { project, user, integrations } = await readDetail(session.userId, projectId(params), 'read');
    return { msg: { ...projects.detailView(project, user), integrations: integrations() } };
  },
  async update({ session, params, body }: AuthedInput<z.infer<typeof projectUpdateSchema>>) {
    // Read in the same batch as GET: the answer is GET's, integrations included.
    const { project, user, integrations } = await readDetail(session.userId, projectId(params), 'settings');
    const detail = await projects.update(session.userId, project, user, body);
    return { msg: { ...detail, integrations: integrations() } };
  },
  async remove({ session, params }: AuthedInput) {
    await projects.remove(session.userId, projectId(params));
    return { msg: null };
  },
};

export const handler = resourceHandler('projects', operations);
