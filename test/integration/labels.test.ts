/**
 * A project's labels through the local stack (issue 23, docs/data-model.md 4.13 "Labels"): create, rename,
 * recolour and delete; ≤ 50 per project and unique names (case-insensitive), also under parallel creates;
 * ADMINs manage them, a MEMBER reads them (403 on writes), another client is refused (404); a deleted
 * label leaves the issues' answers at once.
 */
import { describe, expect, it } from 'vitest';
import { findUserIdByEmail } from '../../functions/accounts/user';
import { seedIssues } from '../support/issues';
import { setUpTestStack } from '../support/stack-fixture';
import { addToTeam } from '../support/teams';
import { signedIn } from '../support/users';

const stack = setUpTestStack();

async function project() {
  const owner = await signedIn(stack.url);
  const ownerUid = (await findUserIdByEmail(owner.email.toLowerCase())) ?? '';
  const created = await owner.client.post('/api/client/website', { name: 'Shop', url: 'shop.example' });
  const pid = (created.body as { msg: { id: string } }).msg.id;
  return { owner: owner.client, ownerUid, pid, path: `/api/client/website/${pid}/labels` };
}

type LabelMsg = { label: { id: string; name: string; color: string } };

describe('labels', () => {
  it('creates, lists, renames, recolours and deletes', async () => {
    const { owner, path } = await project();
    const made = await owner.post<LabelMsg>(path, { name: 'Bug', color: '#aa0000' });
    expect(made.status).toBe(201);
    const label = (made.body as { msg: LabelMsg }).msg.label;
    expect(label).toMatchObject({ name: 'Bug', color: '#aa0000' });
    expect(label.id).toMatch(/^[a-z0-9]{8,16}$/);
    expect((await owner.get(path)).body).toMatchObject({ msg: { labels: [label] } });
    const renamed = await owner.patch(`${path}/${label.id}`, { name: 'Defect' });
    expect(renamed.body).toMatchObject({
      msg: { label: { id: label.id, name: 'Defect', color: '#aa0000' } },
    });
    const recoloured = await owner.patch(`${path}/${label.id}`, { color: '#00aa00' });
    expect(recoloured.body).toMatchObject({ msg: { label: { name: 'Defect', color: '#00aa00' } } });
    expect((await owner.delete(`${path}/${label.id}`)).status).toBe(200);
    // Deleting again is success (idempotent); changing a deleted one is NOT_FOUND.
    expect((await owner.delete(`${path}/${label.id}`)).status).toBe(200);
    expect((await owner.patch(`${path}/${label.id}`, { color: '#000000' })).status).toBe(404);
    expect((await owner.get(path)).body).toMatchObject({ msg: { labels: [] } });
  });

  it('refuses malformed labels, a duplicate name in any case, and more than 50 (also in parallel)', async () => {
    const { owner, path } = await project();
    for (const body of [
      {},
      { name: '', color: '#aa0000' },
      { name: 'x'.repeat(31), color: '#aa0000' },
      { name: 'Bug', color: 'red' },
      { name: 'Bug', color: '#aa0000', extra: 1 },
      { name: 'Bu\u202eg', color: '#aa0000' },
    ]) {
      const res = await owner.post(path, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ code: 'INVALID_PARAMETERS' });
    }
    expect((await owner.post(path, { name: 'Bug', color: '#aa0000' })).status).toBe(201);
    const dup = await owner.post(path, { name: 'bUG', color: '#bb0000' });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ code: 'LABEL_EXISTS' });
    for (let i = 0; i < 45; i++) await owner.post(path, { name: `L${i}`, color: '#123456' });
    // The last four places, ten asking at once: the version condition lets exactly four in.
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => owner.post(path, { name: `P${i}`, color: '#123456' })),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(4);
    expect(answers.filter((a) => a.status !== 201).map((a) => (a.body as { code: string }).code)).toEqual(
      Array(6).fill('LABEL_LIMIT'),
    );
    const listed = (await owner.get(path)).body as { msg: { labels: unknown[] } };
    expect(listed.msg.labels).toHaveLength(50);
  });

  it('lets ADMINs manage them, MEMBERs and GUESTs read them, and refuses another client', async () => {
    const { owner, ownerUid, pid, path } = await project();
    const [admin, member, guest, outsider] = await Promise.all([1, 2, 3, 4].map(() => signedIn(stack.url)));
    const uid = async (e: string) => (await findUserIdByEmail(e.toLowerCase())) ?? '';
    await addToTeam(ownerUid, await uid(admin!.email), 'ADMIN');
    await addToTeam(ownerUid, await uid(member!.email), 'MEMBER');
    await addToTeam(ownerUid, await uid(guest!.email), 'GUEST', [pid]);
    expect((await admin!.client.post(path, { name: 'Bug', color: '#aa0000' })).status).toBe(201);
    const denied = await member!.client.post(path, { name: 'UI', color: '#aa0000' });
    expect(denied.status).toBe(403);
    expect((await member!.client.get(path)).status).toBe(200);
    expect((await guest!.client.get(path)).status).toBe(200);
    expect((await outsider!.client.get(path)).status).toBe(404);
    expect((await outsider!.client.post(path, { name: 'UI', color: '#aa0000' })).status).toBe(404);
    expect((await owner.get(path)).status).toBe(200);
  });

  it('leaves the answers of the issues that had it at once when deleted', async () => {
    const { owner, pid, path } = await project();
    await seedIssues(pid, 1);
    const ids: string[] = [];
    for (const name of ['Bug', 'UI']) {
      const res = await owner.post<LabelMsg>(path, { name, color: '#aa0000' });
      ids.push((res.body as { msg: LabelMsg }).msg.label.id);
    }
    const issue = `/api/client/website/${pid}/request/1`;
    expect((await owner.patch(issue, { labels: ids })).body).toMatchObject({ msg: { labels: ids } });
    await owner.delete(`${path}/${ids[0]}`);
    expect((await owner.get(issue)).body).toMatchObject({ msg: { labels: [ids[1]] } });
    const list = (await owner.get(`/api/client/website/${pid}/request`)).body as {
      msg: { requests: { labels: string[] }[] };
    };
    expect(list.msg.requests[0]?.labels).toEqual([ids[1]]);
    // A deleted label can no longer be given.
    expect((await owner.patch(issue, { labels: [ids[0]] })).status).toBe(400);
  });
});
