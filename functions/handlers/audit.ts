/**
 * The team's audit log (issue 35, contracts/audit.ts): a page of entries for the Audit screen, and the same
 * filters as a CSV file. OWNER and ADMIN only, through the one policy's `team.audit`; reading only (the
 * function's table grant is read-only, teams/manifest.ts).
 */
import { AUDIT_CSV_MAX, AUDIT_PAGE, type AuditEntry, type AuditPage } from '#contracts/audit';
import type { Lang } from '#contracts/errors';
import type { Actor } from '#contracts/triage';
import { type InputOf, type OpName, type RawReply, resourceHandler } from '#runtime/http';
import { nowMs } from '#runtime/time';
import { CRLF, csvRow, UTF8_BOM } from '../issues/csv';
import { contentDisposition } from '../issues/downloads';
import { authorizeTeam, membershipOf } from '../projects/access';
import { readAudit } from '../teams/audit';
import { auditApi } from '../teams/manifest';
import { factsOf } from '../teams/team';

type In<Op extends OpName<typeof auditApi>> = InputOf<typeof auditApi, Op>;

async function authorized({ session, params }: In<OpName<typeof auditApi>>) {
  const { teams } = await factsOf(session.userId, []);
  authorizeTeam(membershipOf(teams, params.teamId), 'team.audit');
}

const csvTexts: Record<
  Lang,
  { columns: string[]; via: (name: string, token: string) => string; cut: string }
> = {
  en: {
    columns: ['When (UTC)', 'Event', 'Who', 'Who (kind)', 'Who (id)', 'Project', 'Target', 'Details'],
    via: (name, token) => `${name} via API token ${token}`,
    cut: `Cut at ${AUDIT_CSV_MAX} rows: narrow the filters for older entries.`,
  },
  de: {
    columns: ['Wann (UTC)', 'Ereignis', 'Wer', 'Wer (Art)', 'Wer (ID)', 'Projekt', 'Ziel', 'Details'],
    via: (name, token) => `${name} über API-Token ${token}`,
    cut: `Nach ${AUDIT_CSV_MAX} Zeilen abgeschnitten: Filter enger setzen für ältere Einträge.`,
  },
};

const actorText = (actor: Actor, lang: Lang) =>
  actor.kind === 'token' && actor.token ? csvTexts[lang].via(actor.name, actor.token) : actor.name;

/** The details as `key=value` pairs, sorted so that a file reads the same every time. */
const detailText = (detail: AuditEntry['detail']) =>
  Object.entries(detail ?? {})
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k}=${v === null ? '' : String(v)}`)
    .join('; ');

export const operations = {
  /** Session, TEAMS (the check), one Query (a filter: up to 4): 3 requests. */
  async list(input: In<'list'>): Promise<{ msg: AuditPage }> {
    await authorized(input);
    return { msg: await readAudit(input.params.teamId, input.query, AUDIT_PAGE) };
  },
  /**
   * The log under the same filters as a CSV file (UTF-8 with BOM, RFC 4180, every text cell neutralised
   * against formula injection: names, token and integration names are typed by people). Pages of the
   * screen's Query until the end or AUDIT_CSV_MAX rows; a cut file says so in its last row.
   */
  async csv(input: In<'csv'>): Promise<RawReply> {
    await authorized(input);
    const { lang } = input;
    const t = csvTexts[lang];
    let body = UTF8_BOM + csvRow(t.columns);
    let cursor: string | undefined;
    let rows = 0;
    do {
      const page = await readAudit(
        input.params.teamId,
        // From the newest on, whatever page the screen showed.
        { kind: input.query.kind, actor: input.query.actor, cursor },
        500,
      );
      for (const e of page.entries) {
        body += csvRow([
          e.at,
          e.kind,
          actorText(e.actor, lang),
          e.actor.kind,
          e.actor.id ?? '',
          e.projectId ?? '',
          e.target ?? '',
          detailText(e.detail),
        ]);
      }
      rows += page.entries.length;
      cursor = page.cursor ?? undefined;
    } while (cursor && rows < AUDIT_CSV_MAX);
    if (cursor) body += csvRow([t.cut]);
    const day = new Date(nowMs()).toISOString().slice(0, 10);
    return {
      raw: {
        statusCode: 200,
        headers: {
          'content-type': 'text/csv; charset=utf-8',
          'content-disposition': contentDisposition('attachment', `snag-audit-${day}.csv`),
          'cache-control': 'private, no-store',
          'x-content-type-options': 'nosniff',
        },
        body: body.endsWith(CRLF) ? body : body + CRLF,
      },
    };
  },
};

export const handler = resourceHandler(auditApi, operations);
