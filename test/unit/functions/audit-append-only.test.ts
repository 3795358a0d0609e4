/**
 * The audit log is append-only for the application (issue 35, contracts/audit.ts): no route edits or
 * deletes an entry. Checked over the route table (the log's routes only read, through a function whose
 * table grant is read-only) and over the sources (the AUDIT partition's key is built in one module, whose
 * only writes are the conditional Put of a new entry and the whole log's deletion with its team, which only
 * the team's own deletion calls; everyone else writes through `auditPut`/`recordAudit`).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { functionNeeds } from '../../../functions/manifests';
import { routes } from '../../../functions/routes';

const root = join(__dirname, '../../..');
const WRITER = 'functions/teams/audit.ts';

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const path = join(dir, d.name);
    if (d.isDirectory()) return sources(path);
    return d.name.endsWith('.ts') ? [relative(root, path)] : [];
  });
}

describe('the audit log', () => {
  it('has only reading routes, OWNER and ADMIN through team.audit, on a read-only function', () => {
    const audit = routes.filter((r) => r.path.includes('/audit'));
    expect(audit.map((r) => `${r.method} ${r.path}`).sort()).toEqual([
      'GET /api/client/team/{teamId}/audit',
      'GET /api/client/team/{teamId}/audit.csv',
    ]);
    for (const r of audit) {
      expect(r.resource).toBe('audit');
      expect(r.access).toEqual({ scope: 'team', action: 'team.audit', from: 'params.teamId' });
    }
    expect(functionNeeds().get('api:audit')).toEqual({ table: 'read' });
  });

  it('is written only by its writer module: the partition key nowhere else, only new entries there', () => {
    const files = sources(join(root, 'functions'));
    const naming = files.filter((f) => /AUDIT#/.test(readFileSync(join(root, f), 'utf8')));
    expect(naming).toEqual([WRITER]);
    const usesPartition = files.filter(
      (f) => f !== WRITER && /\bauditPartition\b/.test(readFileSync(join(root, f), 'utf8')),
    );
    expect(usesPartition).toEqual([]);
    const writer = readFileSync(join(root, WRITER), 'utf8');
    // No update or delete of one entry; each Put is conditional on the key being new.
    expect(writer).not.toMatch(/\b(Update|Delete)(Command|Item)?\b\s*[:({]/);
    expect(writer).toContain("ConditionExpression: 'attribute_not_exists(pk)'");
    expect(writer.match(/batchDelete\(/g)).toHaveLength(1);
    // The whole log is deleted only with its team, by the team's own deletion.
    const deleting = files.filter(
      (f) => f !== WRITER && /\bdeleteAuditOf\b/.test(readFileSync(join(root, f), 'utf8')),
    );
    expect(deleting).toEqual(['functions/teams/team.ts']);
  });
});
