/**
 * The projects feature's data: loading and saving projects. The only module of projects/ that calls the
 * API; `staleReads` says which cached reads each of its writes leaves stale (web/src/api/swr.ts applies it).
 */
import type { WidgetSettings } from '#contracts/schemas';
import type { ApiError } from '../api';
import type { Answer } from '../api/endpoints';
import { reload, type StaleReads, toLogin, useEndpoint, writer } from '../api/swr';
import { paths } from '../paths';
import { projectPath, projectsPath } from './model';

export type ProjectList = Answer<'projects.list'>;

/**
 * What each write leaves stale. A saved project's answer is the project: it replaces the cached one, and
 * the list (sidebar, dashboard: names and counts) reloads. A deleted project leaves the list at once, the
 * list reloads, and its own answer is forgotten.
 */
const staleReads: StaleReads = {
  'projects.update': ({ id }, saved) => ({ put: [[projectPath(id), saved]], later: [projectsPath] }),
  'projects.create': () => ({ reload: [projectsPath] }),
  'projects.remove': ({ id }) => ({
    put: [
      [
        projectsPath,
        (list?: ProjectList) => list && { websites: list.websites.filter((p) => p.uuid !== id) },
      ],
    ],
    reload: [projectsPath],
    forget: [projectPath(id)],
  }),
};
const write = writer(staleReads);

export function useProjects() {
  return useEndpoint('projects.list', {}, { redirect: toLogin });
}

/** The same list for the sidebar, an aid rather than the page's data: a failed load leaves it empty, no redirect. */
export function useSidebarProjects() {
  return useEndpoint('projects.list', {}, { redirect: () => null });
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
  return write('projects.update', { params: { id }, body: change });
}

export async function createProject(input: { name: string; url: string }): Promise<string> {
  const { id } = await write('projects.create', { body: input });
  return id;
}

export async function deleteProject(id: string): Promise<void> {
  await write('projects.remove', { params: { id } });
}

/** The list again: a refused creation (the plan's limit) means the list on screen is out of date. */
export async function reloadProjects(): Promise<void> {
  await reload(projectsPath);
}
