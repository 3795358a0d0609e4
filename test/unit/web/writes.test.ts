/**
 * The dashboard's writes (web/src/api/swr.ts): a successful write applies its feature's stale-reads
 * entry, putting an answer that is the new state into the cache without fetching it again; a refused write
 * leaves the cache as it was.
 */
import { SWRConfig } from 'swr';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { endpointPath } from '../../../web/src/api/endpoints';
import { writer } from '../../../web/src/api/swr';
import { deleteProject, saveProject } from '../../../web/src/projects/data';
import { projectsPath } from '../../../web/src/projects/model';

const projectPath = endpointPath('projects.get', { params: { id: 'p1' } });
const cached = (key: string) => SWRConfig.defaultValue.cache.get(key)?.data;

function answering(status: number, msg: unknown) {
  const fetchMock = vi.fn(
    async () =>
      new Response(
        JSON.stringify(
          status < 400 ? { status: 'success', msg } : { status: 'error', code: 'FORBIDDEN', msg },
        ),
        {
          status,
        },
      ),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const write = writer({
  'projects.update': ({ id }, saved) => ({
    put: [[endpointPath('projects.get', { params: { id } }), saved]],
  }),
});

afterEach(() => {
  vi.unstubAllGlobals();
  SWRConfig.defaultValue.cache.delete(projectPath);
  SWRConfig.defaultValue.cache.delete(projectsPath);
});

const put = (key: string, data: unknown) => SWRConfig.defaultValue.cache.set(key, { data });

describe('a write', () => {
  it('puts an answer that is the new state into the cache, with no second request', async () => {
    const fetchMock = answering(200, { uuid: 'p1', name: 'Shop' });
    await write('projects.update', { params: { id: 'p1' }, body: { name: 'Shop' } });
    expect(cached(projectPath)).toEqual({ uuid: 'p1', name: 'Shop' });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('leaves the cache as it was when the write is refused', async () => {
    answering(403, 'Forbidden');
    await expect(
      write('projects.update', { params: { id: 'p1' }, body: { name: 'Shop' } }),
    ).rejects.toThrow();
    expect(cached(projectPath)).toBeUndefined();
  });
});

describe("the projects' writes", () => {
  it('a saved project replaces the cached one without fetching it again', async () => {
    put(projectPath, { uuid: 'p1', name: 'Old' });
    const fetchMock = answering(200, { uuid: 'p1', name: 'New' });
    await saveProject('p1', { name: 'New' });
    expect(cached(projectPath)).toEqual({ uuid: 'p1', name: 'New' });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('a deleted project leaves the cached list at once, and its own answer is forgotten', async () => {
    put(projectsPath, { websites: [{ uuid: 'p1' }, { uuid: 'p2' }] });
    put(projectPath, { uuid: 'p1', name: 'Shop' });
    answering(200, null);
    await deleteProject('p1');
    expect(cached(projectsPath)).toEqual({ websites: [{ uuid: 'p2' }] });
    expect(cached(projectPath)).toBeUndefined();
  });
});
