/** The signed-in client's projects: client/website and client/website/{id} (SPEC.md section 7). */
import type * as z from 'zod';
import type { projectSchema } from '#contracts/schemas';
import { type AuthedInput, type InputOf, type OpName, resourceHandler } from '#runtime/http';
import { projectsApi } from '../projects/manifest';
import * as projects from '../projects/service';

/** What the pipeline hands an operation: params and body as the route's schemas produced them. */
type In<Op extends OpName<typeof projectsApi>> = InputOf<typeof projectsApi, Op>;

export const operations = {
  async list({ session }: AuthedInput) {
    return { msg: await projects.list(session.userId) };
  },
  async create({ session, body, lang }: AuthedInput<z.infer<typeof projectSchema>>) {
    return { msg: await projects.create(session.userId, body, lang), statusCode: 201 };
  },
  async get({ session, params }: In<'get'>) {
    return { msg: await projects.get(session.userId, params.id) };
  },
  async update({ session, params, body }: In<'update'>) {
    return { msg: await projects.update(session.userId, params.id, body) };
  },
  async remove({ session, params }: In<'remove'>) {
    await projects.remove(session.userId, params.id);
    return { msg: null };
  },
};

export const handler = resourceHandler(projectsApi, operations);
