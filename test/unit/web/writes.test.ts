/**
 * The dashboard's writes (web/src/api/swr.ts): a successful write applies its feature's stale-reads
 * entry, putting an answer that is the new state into the cache without fetching it again; a refused write
 * leaves the cache as it was.
 */
import { SWRConfig } from 'swr';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { endpointPath } from '../../../web/src/api/endpoints';
import { writer } from '../../../web/src/api/swr';
import { moveIssue, patchIssue, setIssueState } from '../../../web/src/issues/data';
import { issuePath } from '../../../web/src/issues/model';
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

describe("the issues' state changes (one endpoint, an entry per caller)", () => {
  const listPath = endpointPath('issues.list', { params: { id: 'p1' }, query: { page: 1 } });
  const openIssue = issuePath('p1', 7);
  // As SWR stores a loaded read: its key too, which key filters (all lists of a project) test.
  const put = (key: string, data: unknown) =>
    SWRConfig.defaultValue.cache.set(key, { data, _k: key } as { data: unknown });
  afterEach(() => {
    SWRConfig.defaultValue.cache.delete(listPath);
    SWRConfig.defaultValue.cache.delete(openIssue);
  });

  it('closing leaves the screen while the lists still show, then empties them', async () => {
    put(listPath, { tickets: [{ number: 7 }] });
    answering(200, { number: 7, resolved: true });
    let seenOnLeaving: unknown;
    await setIssueState('p1', 7, false, () => {
      seenOnLeaving = cached(listPath);
    });
    expect(seenOnLeaving).toEqual({ tickets: [{ number: 7 }] });
    expect(cached(listPath)).toBeUndefined();
  });

  it('a field change keeps the rows of the lists (refreshed, not emptied) and the issue on screen', async () => {
    put(listPath, { tickets: [{ number: 7 }] });
    put(openIssue, { number: 7 });
    const fetchMock = answering(200, { number: 7 });
    await patchIssue('p1', 7, { priority: 'high' });
    expect(cached(listPath)).toEqual({ tickets: [{ number: 7 }] });
    expect(cached(openIssue)).toEqual({ number: 7 });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it("a board move empties the lists, so the list screen loads the card's new place", async () => {
    put(listPath, { tickets: [{ number: 7, status: 'new' }] });
    answering(200, { number: 7 });
    await moveIssue('p1', 7, 'in_review');
    await vi.waitFor(() => expect(cached(listPath)).toBeUndefined());
  });

  it('a refused move leaves the lists as they were', async () => {
    put(listPath, { tickets: [{ number: 7, status: 'new' }] });
    answering(403, 'Forbidden');
    await expect(moveIssue('p1', 7, 'in_review')).rejects.toThrow();
    expect(cached(listPath)).toEqual({ tickets: [{ number: 7, status: 'new' }] });
  });
});
