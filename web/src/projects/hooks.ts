/** Loading and saving projects through the API client, with the SWR cache kept in step. */
import { mutate } from 'swr';
import type { WidgetSettings } from '#contracts/schemas';
import { type ApiError, api } from '../api';
import type { Answer } from '../api/endpoints';
import { toLogin, useEndpoint } from '../api/swr';
import { paths } from '../paths';
import { projectPath, projectsPath } from './model';

export type ProjectList = Answer<'projects.list'>;

export function useProjects() {
  return useEndpoint('projects.list', {}, { redirect: toLogin });
}

/** The signed-in profile (loaded by ProfileLayout already, so this reads the cache). */
export function useProfile() {
  return useEndpoint('profile.get', {}, { redirect: toLogin });
}

/**
 * One project. Unknown or another client's project (404) goes back to the dashboard; no session goes to
 * login, as does any other failure (SPEC.md section 2: a failed load redirects to login).
 */
export function useProject(id: string | undefined) {
  return useEndpoint('projects.get', id ? { params: { id } } : null, { redirect: toDashboardIfMissing });
}

/** Where a failed load of one of the client's projects (or its issues) goes. */
export const toDashboardIfMissing = (error: ApiError) =>
  error.status === 404 || error.status === 403 ? paths.profile : '/login';

export interface ProjectChange {
  name?: string;
  url?: string;
  active?: 0 | 1;
  activeParam?: 0 | 1;
  data?: Partial<WidgetSettings>;
}

/** PATCH the project; the answer replaces the cached project and the list (sidebar, dashboard) reloads. */
export async function saveProject(id: string, change: ProjectChange) {
  const saved = await api.call('projects.update', { params: { id }, body: change });
  await mutate(projectPath(id), saved, { revalidate: false });
  void mutate(projectsPath);
  return saved;
}

export async function createProject(input: { name: string; url: string }): Promise<string> {
  const { id } = await api.call('projects.create', { body: input });
  await mutate(projectsPath);
  return id;
}

export async function deleteProject(id: string): Promise<void> {
  await api.call('projects.remove', { params: { id } });
  await mutate(
    projectsPath,
    (list?: ProjectList) => list && { websites: list.websites.filter((p) => p.uuid !== id) },
    {
      revalidate: true,
    },
  );
  await mutate(projectPath(id), undefined, { revalidate: false });
}
