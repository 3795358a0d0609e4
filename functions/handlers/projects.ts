/** The signed-in client's projects: client/website and client/website/{id} (SPEC.md section 7). */
import type * as z from 'zod';
import { projectIdParam, type projectSchema, type projectUpdateSchema } from '#contracts/schemas';
import { AppError } from '#runtime/errors';
import { type AuthedInput, resourceHandler } from '#runtime/http';
import * as projects from '../projects/service';

/** A malformed id cannot name a project: the same 404 as someone else's. */
function projectId(params: Record<string, string>): string {
  const parsed = projectIdParam.safeParse(params.id);
  if (!parsed.success) throw new AppError('NOT_FOUND');
  return parsed.data;
}

export const operations = {
  async list({ session }: AuthedInput) {
    return { msg: await projects.list(session.userId) };
  },
  async create({ session, body, lang }: AuthedInput<z.infer<typeof projectSchema>>) {
    return { msg: await projects.create(session.userId, body, lang), statusCode: 201 };
  },
  async get({ session, params }: AuthedInput) {
    return { msg: await projects.get(session.userId, projectId(params)) };
  },
  async update({ session, params, body }: AuthedInput<z.infer<typeof projectUpdateSchema>>) {
    return { msg: await projects.update(session.userId, projectId(params), body) };
  },
  async remove({ session, params }: AuthedInput) {
    await projects.remove(session.userId, projectId(params));
    return { msg: null };
  },
};

export const handler = resourceHandler('projects', operations);
