/**
 * Filing issues through the public API (issue 34, docs/api.md "Filing issues"): a script with a team's
 * token, or the browser extension as the member who connected it. The same core as the widget's intake
 * (issues/filing.ts): the same keys, sizes, types, plan features, quota and fan-out; none of the visitor's
 * gates (proof of work, visitor and network windows, the project's daily count), since the token has its
 * own rate limit and a named author. The widget's on/off switches say what visitors may send: they do not
 * bind the project's own people (decision API-F2).
 */
import type { V1IssueCreate } from '#contracts/api-v1';
import type { UploadKind } from '#contracts/intake';
import type { TokenCaller } from '#contracts/token-caller';
import type { Actor, FiledVia } from '#contracts/triage';
import type { WidgetConfig } from '#contracts/widget-config';
import { sha256 } from '#runtime/crypto';
import type { Logger } from '#runtime/log';
import { projectFor } from '../projects/access';
import { widgetConfig } from '../projects/loader';
import { ownerPlanOf, type Project, toProject } from '../projects/project';
import { tokenActor } from '../teams/token';
import { checkPlanFeature, checkTakesReports, fileIssue, type IssueReport, presignFor } from './filing';
import { claim, completion, release } from './idempotency';
import { issuePageUrl } from './page-url';
import type { PresignedUpload } from './uploads';

type Caller = Pick<TokenCaller, 'id' | 'kind' | 'name' | 'creatorName' | 'principal'>;

/**
 * The project a caller files into: they may `report` on it (every role, a GUEST on its own projects;
 * another team's project is NOT_FOUND), and it takes reports (a lapsed plan: PLAN_LIMIT). A project whose
 * widget is switched off still takes its people's reports: the switch is the snippet's.
 */
async function projectToFile(caller: Caller, projectId: string): Promise<Project> {
  const project = toProject(await projectFor(caller.principal, projectId, 'report'));
  checkTakesReports(project);
  return project;
}

/** Members and scripts are bound by the plan's features only (never by the widget's switches). */
const planOnly = (project: Project) => (kind: UploadKind) => checkPlanFeature(project, kind);

/** POST /api/v1/projects/{projectId}/uploads: the widget's presigned form, without the visitor windows. */
export async function requestApiUpload(
  caller: Caller,
  projectId: string,
  input: { kind: UploadKind; type: string; size: number },
): Promise<PresignedUpload> {
  const project = await projectToFile(caller, projectId);
  return presignFor(project, input, planOnly(project)).presign();
}

/** GET /api/v1/projects/{projectId}/widget: the project's widget as its loader gets it, after the plan. */
export async function widgetForCaller(caller: Caller, projectId: string): Promise<WidgetConfig> {
  const project = toProject(await projectFor(caller.principal, projectId, 'report'));
  return widgetConfig(project, ownerPlanOf(project));
}

/** Who filed it, as the `created` activity names them and the issue page shows it. */
function authorOf(caller: Caller): { actor: Actor; filedVia: FiledVia } {
  if (caller.kind === 'extension') {
    const name = caller.creatorName ?? '';
    return {
      actor: { kind: 'member', id: caller.principal, name: name || 'Member', via: 'extension' },
      filedVia: { kind: 'extension', name, token: null },
    };
  }
  return {
    actor: tokenActor(caller),
    filedVia: { kind: 'token', name: caller.creatorName ?? '', token: caller.name },
  };
}

/** The v1 body as the core's report (the widget's field names). */
const reportOf = (body: V1IssueCreate): IssueReport => ({
  msg: body.description,
  title: body.title,
  username: body.reporterEmail,
  href: body.pageUrl,
  ...body.device,
  customFields: body.customFields,
  screenshots: body.screenshots,
  files: body.files.map((f) => ({ key: f.key, original_name: f.name })),
  logs: body.logs,
  steps: body.steps,
  ...(body.replay ? { replay: body.replay } : {}),
  ...(body.sentAt !== undefined ? { sentAt: body.sentAt } : {}),
  ...(body.language !== undefined ? { language: body.language } : {}),
});

export interface Filed {
  number: number;
  url: string;
  /** False when an earlier call with the same Idempotency-Key and body filed it (the answer is 200). */
  created: boolean;
}

/**
 * POST /api/v1/projects/{projectId}/issues. Access first (a key is never spent on a refused project),
 * then the key's claim, then the core with the claim's completion in the issue's own transaction.
 */
export async function fileApiIssue(
  caller: Caller,
  projectId: string,
  body: V1IssueCreate,
  idemKey: string | undefined,
  ctx: { log: Logger; correlationId: string },
): Promise<Filed> {
  const project = await projectToFile(caller, projectId);
  const answer = (number: number, created: boolean): Filed => ({
    number,
    url: issuePageUrl(project.id, number),
    created,
  });
  // The body as parsed (zod's output, its keys in the schema's order): equal requests hash alike.
  const claimed = idemKey
    ? await claim(caller.id, idemKey, sha256(`${projectId}\n${JSON.stringify(body)}`))
    : null;
  if (claimed?.kind === 'done') return answer(claimed.number, false);
  try {
    const { number } = await fileIssue(project, reportOf(body), {
      checkKind: planOnly(project),
      ...(claimed ? { extra: (n: number) => completion(claimed.key, n) } : {}),
      ...authorOf(caller),
      log: ctx.log,
      correlationId: ctx.correlationId,
    });
    return answer(number, true);
  } catch (err) {
    if (claimed)
      await release(claimed.key, claimed.claimedAt).catch((e) => ctx.log.warn('claim kept', { e }));
    throw err;
  }
}
