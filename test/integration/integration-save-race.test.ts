/**
 * The lost "Active" (issue 19): GitLab's and Jira's project lists authorise again on the server, reading
 * the integration and writing it back whole. A dashboard save that landed between that read and write
 * was overwritten with the state from before it: the screen said "saved, active", the server had it off.
 * Here the save is put exactly there, by a middleware on the functions' DynamoDB client (the local stack
 * runs the handlers in this process), so the race happens every time instead of now and then.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { db } from '#runtime/aws/dynamo';
import { startVendorFakes, type VendorFakes } from '../../lib/local/vendors';
import { newSite, type Site } from '../support/sites';
import { setUpTestStack } from '../support/stack-fixture';

let fakes: VendorFakes;
const stack = setUpTestStack(async () => {
  fakes = await startVendorFakes();
  return { env: { SNAG_OUTBOUND_ALLOW_LOCAL: '1', ...fakes.env } };
});

afterAll(async () => {
  await fakes?.stop();
});

type Vendor = 'gitlab' | 'jira';

/** The integration as stored (unmasked). */
async function stored(projectId: string, name: Vendor) {
  const out = await db().send(
    new GetCommand({
      TableName: stack.tableName,
      Key: { pk: `PROJECT#${projectId}`, sk: `INTEGRATION#${name}` },
      ConsistentRead: true,
    }),
  );
  return out.Item as { active: number; data: Record<string, unknown> } | undefined;
}

/** The project list call of the dashboard's GitLab or Jira tab (it authorises and saves on success). */
const listProjects = (site: Site, vendor: Vendor) =>
  site.client.post(
    `/api/client/integration/${vendor}/projects`,
    vendor === 'gitlab'
      ? { siteId: site.id, host: '', key: 'glpat-race' }
      : { siteId: site.id, host: fakes.jira.url, username: 'dev@shop.example', key: 'jira-race' },
  );

/**
 * Runs `during` just before the next write of `vendor`'s integration item goes to DynamoDB (the list
 * call's, after its read), then lets that write go on.
 */
function beforeNextWrite(vendor: Vendor, during: () => Promise<unknown>) {
  const name = `race-${vendor}`;
  let armed = true;
  db().middlewareStack.add(
    (next) => async (args) => {
      const input = JSON.stringify((args as { input?: unknown }).input ?? {});
      if (armed && input.includes('TransactItems') && input.includes(`INTEGRATION#${vendor}`)) {
        armed = false;
        await during();
      }
      return next(args);
    },
    { step: 'initialize', name },
  );
  return () => db().middlewareStack.remove(name);
}

describe('a save while a project list authorises', () => {
  it.each(['gitlab', 'jira'] as const)('keeps the Active the %s save wrote', async (vendor) => {
    const site = await newSite(stack.url, 'BASIC_PLAN');
    expect((await listProjects(site, vendor)).status).toBe(200);
    const before = await stored(site.id, vendor);
    expect(before?.active).toBe(0);

    let saveStatus = 0;
    const done = beforeNextWrite(vendor, async () => {
      const res = await site.client.patch(`/api/client/integration/${site.id}`, [
        { name: vendor, active: 1, authorized: 1, data: before?.data },
      ]);
      saveStatus = res.status;
    });
    try {
      expect((await listProjects(site, vendor)).status).toBe(200);
    } finally {
      done();
    }
    expect(saveStatus, 'the save landed in between').toBe(200);
    expect((await stored(site.id, vendor))?.active).toBe(1);
    const project = await site.client.get<{ integrations: { name: string; active: number }[] }>(
      `/api/client/website/${site.id}`,
    );
    const view =
      project.body.status === 'success' ? project.body.msg.integrations.find((i) => i.name === vendor) : null;
    expect(view?.active).toBe(1);
  });
});
