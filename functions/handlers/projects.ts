/** The signed-in client's projects: client/website and client/website/{id} (SPEC.md section 7). */
import type * as z from 'zod';
import { projectActionOf } from '#contracts/access';
import { TEAM_COOKIE } from '#contracts/cookies';
import type { projectSchema } from '#contracts/schemas';
import { type AuthedInput, type InputOf, type OpName, resourceHandler } from '#runtime/http';
import { readCookie } from '#runtime/session';
import { integrationsAnswer, ownerNotification, readOwnedIntegrations } from '../integrations/integration';
import { may, type ProjectAction } from '../projects/access';
import { projectsApi } from '../projects/manifest';
import { planOfProject } from '../projects/project';
import * as projects from '../projects/service';
import { teamOf } from '../teams/member';

/** What the pipeline hands an operation: params and body as the route's schemas produced them. */
type In<Op extends OpName<typeof projectsApi>> = InputOf<typeof projectsApi, Op>;

/**
 * The project (with the caller's role), the caller and its six integrations in the one BatchGetItem of A30
 * (with META and the caller's TEAMS): the detail answer is the project's view with the integrations'
 * (masked), composed here because integrations rank above projects. `owner` is known from that batch for
 * the caller's personal team; another team's owner's name is one more BatchGetItem, run beside what follows.
 */
async function readDetail(userId: string, id: string, action: ProjectAction) {
  const { project, caller, owner, integrations } = await readOwnedIntegrations(id, userId, action);
  const ownerName = owner !== null ? Promise.resolve(owner) : projects.teamOwnerName(teamOf(project));
  return {
    project,
    caller,
    ownerName,
    integrations: () => integrationsAnswer(integrations, planOfProject(project)),
  };
}

// Each operation hands the action its route declares (input.access) to the policy (decision T7).
export const operations = {
  async list({ session, query, event }: In<'list'>) {
    const choice = { requested: query.teamId, cookie: readCookie(event, TEAM_COOKIE) };
    return { msg: await projects.list(session.userId, choice) };
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
  async get({ session, params, access }: In<'get'>) {
    const { project, ownerName, integrations } = await readDetail(
      session.userId,
      params.id,
      projectActionOf(access),
    );
    // The integrations (masked) go to the roles that may triage (Sync needs them); a GUEST, whose client must
    // not read the agency's set-up, gets none (4.12: they are not part of `read`).
    const shown = may(project.role, 'triage') ? integrations() : [];
    const { website } = projects.detailView(project, await ownerName, project.role);
    // Nor the widget settings (`data`, `effective`): a GUEST sees the project's issues, never its set-up
    // (DESIGN section 10); the screens that read them are not a GUEST's.
    const { data: _data, effective: _effective, ...forGuest } = website;
    const shownWebsite: typeof forGuest & Partial<Pick<typeof website, 'data' | 'effective'>> =
      project.role === 'GUEST' ? forGuest : website;
    return { msg: { website: shownWebsite, integrations: shown } };
  },
  async update({ session, params, body, access }: In<'update'>) {
    // Read in the same batch as GET: the answer is GET's, integrations included.
    const { project, caller, ownerName, integrations } = await readDetail(
      session.userId,
      params.id,
      projectActionOf(access),
    );
    const detail = await projects.update(caller, project, ownerName, body);
    return { msg: { ...detail, integrations: integrations() } };
  },
  async remove({ session, params, access }: In<'remove'>) {
    await projects.remove(session.userId, params.id, projectActionOf(access));
    return { msg: null };
  },
};

export const handler = resourceHandler(projectsApi, operations);
