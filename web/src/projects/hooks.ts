/** Loading and saving projects through the API client, with the SWR cache kept in step. */
import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import useSWR, { mutate } from 'swr';
import type { WidgetSettings } from '../../../functions/shared/schemas';
import { ApiError, api } from '../api';
import { useApi } from '../api/swr';
import type { Profile, ProjectDetail, ProjectSummary } from '../api/types';
import { paths } from '../routes/paths';
import { projectPath, projectsPath } from './model';

export type ProjectList = { websites: ProjectSummary[] };

export function useProjects() {
  return useApi<ProjectList>(projectsPath, { redirectOnError: true });
}

/** The signed-in profile (loaded by ProfileLayout already, so this reads the cache). */
export function useProfile() {
  return useApi<Profile>('/client/profile', { redirectOnError: true });
}

/**
 * One project. Unknown or another client's project (404) goes back to the dashboard; no session goes to
 * login, as does any other failure (SPEC.md section 2: a failed load redirects to login).
 */
export function useProject(id: string | undefined) {
  const navigate = useNavigate();
  const result = useSWR<ProjectDetail, ApiError>(id ? projectPath(id) : null);
  const { error } = result;
  useEffect(() => {
    if (!error) return;
    const notFound = error instanceof ApiError && (error.status === 404 || error.status === 403);
    navigate(notFound ? paths.profile : '/login', { replace: true });
  }, [error, navigate]);
  return result;
}

export interface ProjectChange {
  name?: string;
  url?: string;
  active?: 0 | 1;
  activeParam?: 0 | 1;
  data?: Partial<WidgetSettings>;
}

/** PATCH the project; the answer replaces the cached project and the list (sidebar, dashboard) reloads. */
export async function saveProject(id: string, change: ProjectChange): Promise<ProjectDetail> {
  const saved = await api.patch<ProjectDetail>(projectPath(id), change);
  await mutate(projectPath(id), saved, { revalidate: false });
  void mutate(projectsPath);
  return saved;
}

export async function createProject(input: { name: string; url: string }): Promise<string> {
  const { id } = await api.post<{ id: string }>(projectsPath, input);
  await mutate(projectsPath);
  return id;
}

export async function deleteProject(id: string): Promise<void> {
  await api.delete(projectPath(id));
  await mutate(
    projectsPath,
    (list?: ProjectList) => list && { websites: list.websites.filter((p) => p.uuid !== id) },
    {
      revalidate: true,
    },
  );
  await mutate(projectPath(id), undefined, { revalidate: false });
}
