/**
 * Who gets what of the outbox's entries, decided when the flush runs (docs/data-model.md 4.13
 * "Notifications"), so the mail follows the settings and the team as they are now, not as they were when
 * the change was made:
 *   assigned → the assignee; mentioned → each mentioned member; comment → the issue's assignee when their
 *   `comments` setting is on, and a reporter's reply on an issue nobody is assigned to → the team's owners
 *   and admins whose `comments` setting is on (someone must hear the visitor); new → every member of the
 *   project's team whose `newIssue` is 'instant' (or 'daily': into their digest), except those whose
 *   instant mail is the project's Email integration's (it names their address: decision Tr-N8).
 * Dropped: the actor's own events, anyone who may no longer read the project (left the team, or a GUEST
 * outside its projects: the one access policy decides), a GUEST for an internal comment, events of an
 * issue, project or comment that is gone.
 */
import type { Lang } from '#contracts/errors';
import type { Role } from '#contracts/teams';
import type { NotifyEvent } from '#contracts/triage';
import { getItems, type Key } from '#runtime/db';
import { newIssueMailOf, settingsOf } from '../accounts/notifications';
import { userKey } from '../accounts/user';
import { type AccessFacts, authorize, may } from '../projects/access';
import { integrationKey, projectKey } from '../projects/project';
import { type Member, type TeamsItem, teamOf, teamsKey, toTeamsItem } from '../teams/member';
import { readMembers } from '../teams/team';
import { issueHeaderKey, issueHeadOf } from './issue';
import { timelineIdTime, timelineKey } from './timeline';

/** What a mail says about one event (stored with the recipient item, so sending needs no more reads). */
export interface MailEvent {
  kind: NotifyEvent['kind'];
  projectId: string;
  projectName: string;
  number: number;
  title: string;
  /** Who did it (name as it was then); absent for a new report (a visitor filed it). */
  by?: string;
  /** The API token's name when `by` acted through one (the mail reads "<by> via API token <byToken>"). */
  byToken?: string;
  commentId?: string;
  /** The comment's first characters (public, or internal for the roles that read those). */
  excerpt?: string;
  internal?: boolean;
  /** When it happened (ms). */
  at: number;
}

export interface Recipient {
  email: string;
  firstName: string;
  lang: Lang;
}

export interface Delivery {
  userId: string;
  entryId: string;
  when: 'instant' | 'daily';
  recipient: Recipient;
  event: MailEvent;
}

export interface Entry {
  id: string;
  event: NotifyEvent;
}

/** How much of a comment a mail quotes. */
export const EXCERPT_CHARS = 300;
export const excerptOf = (body: string) => {
  const flat = body.replace(/\s+/g, ' ').trim();
  return flat.length > EXCERPT_CHARS ? `${flat.slice(0, EXCERPT_CHARS - 1)}…` : flat;
};

/** The roles that read internal comments: the policy's `internal` action. */
const readsInternal = (role: Role) => may(role, 'internal');

type Item = Record<string, unknown>;

/** What one candidate's decision reads. */
export interface CandidateFacts {
  user: Item | undefined;
  teams: TeamsItem | null;
  meta: Item | undefined;
  comment: Item | undefined;
  /** For a new report: the project's Email integration (its item), when there is one. */
  emailIntegration?: Item | undefined;
}

const emailIntegrationKey = (projectId: string) => integrationKey(projectId, 'email');

/** Whether an active Email integration item sends to `email` (as its address or a copy; any case). */
export function namedBy(integration: Item | undefined, email: unknown): boolean {
  if (integration?.active !== 1 || typeof email !== 'string') return false;
  const data = (integration.data ?? {}) as { email?: unknown; cc?: unknown };
  const to = [data.email, ...(Array.isArray(data.cc) ? data.cc : [])];
  return to.some((a) => typeof a === 'string' && a.toLowerCase() === email.toLowerCase());
}

/** The member's role on the project by the one access policy, or null when they may not read it. */
export function readerRole(
  userId: string,
  teams: TeamsItem | null,
  meta: AccessFacts | undefined,
): Role | null {
  try {
    return authorize({ userId, teams }, meta, 'read').role;
  } catch {
    return null;
  }
}

/** A reporter's reply on an issue without an assignee: the team's owners and admins hear of it. */
const unassignedReply = (e: NotifyEvent) => e.kind === 'comment' && !e.assignee && e.by.kind === 'reporter';
const answersForTeam = (role: Role) => role === 'OWNER' || role === 'ADMIN';

/** Whether `userId` gets `event` now, in their digest, or not at all (pure: the unit tests call it). */
export function decide(event: NotifyEvent, userId: string, f: CandidateFacts): Delivery['when'] | null {
  if (!f.user || typeof f.user.email !== 'string') return null;
  if ('by' in event && event.by.kind === 'member' && event.by.id === userId) return null;
  const role = readerRole(userId, f.teams, f.meta);
  if (!role) return null;
  const settings = settingsOf(f.user);
  if (event.kind === 'new') {
    const named = namedBy(f.emailIntegration, f.user.email);
    const mail = newIssueMailOf(f.user, named);
    // Instant and named: the Email integration's mail is theirs (one mail, the richer one).
    if (mail === 'off' || (mail === 'instant' && named)) return null;
    return mail;
  }
  if (event.kind === 'assigned') return settings.assigned && event.to === userId ? 'instant' : null;
  // Comments and mentions: the comment must still be there, and internal ones only for their readers.
  if (!f.comment) return null;
  if (f.comment.visibility === 'internal' && !readsInternal(role)) return null;
  if (event.kind === 'mentioned') return settings.mentioned && event.to.includes(userId) ? 'instant' : null;
  if (unassignedReply(event)) return settings.comments && answersForTeam(role) ? 'instant' : null;
  return settings.comments && event.assignee === userId ? 'instant' : null;
}

const keyText = (k: Key) => `${k.pk}\n${k.sk}`;

/** Reads `keys` (any number, each once: getItems refuses a key twice), by key. */
async function readAll(keys: Key[]): Promise<Map<string, Item>> {
  const unique = [...new Map(keys.map((k) => [keyText(k), k])).values()];
  const items = await getItems(unique);
  const out = new Map<string, Item>();
  unique.forEach((k, j) => {
    const item = items[j];
    if (item) out.set(keyText(k), item);
  });
  return out;
}

const commentKeyOf = (e: NotifyEvent) =>
  e.kind === 'mentioned' || e.kind === 'comment' ? timelineKey(e.projectId, e.number, e.commentId) : null;

/** The candidates of one event (before their settings and access decide). */
function candidatesOf(e: NotifyEvent, teamMembers: Map<string, Member[]>, meta: Item | undefined): string[] {
  const team = meta ? (teamMembers.get(teamOf(meta)) ?? []) : [];
  switch (e.kind) {
    case 'assigned':
      return [e.to];
    case 'mentioned':
      return [...new Set(e.to)];
    case 'comment':
      if (unassignedReply(e)) return team.filter((m) => answersForTeam(m.role)).map((m) => m.userId);
      return e.assignee ? [e.assignee] : [];
    case 'new':
      return team.map((m) => m.userId);
  }
}

/**
 * The deliveries of `entries`. Requests: BatchGetItem of METAs, headers and comments; one Query of the
 * team's members per team with a new issue among the entries; BatchGetItem of the candidates' USER and
 * TEAMS (each per 100 keys).
 */
export async function resolveDeliveries(entries: Entry[]): Promise<Delivery[]> {
  const facts = await readAll(
    entries.flatMap(({ event: e }) => {
      const keys: Key[] = [projectKey(e.projectId), issueHeaderKey(e.projectId, e.number)];
      const c = commentKeyOf(e);
      if (e.kind === 'new') keys.push(emailIntegrationKey(e.projectId));
      return c ? [...keys, c] : keys;
    }),
  );
  const metaOf = (pid: string) => facts.get(keyText(projectKey(pid)));
  const teamIds = new Set(
    entries.flatMap(({ event: e }) => {
      const meta = e.kind === 'new' || unassignedReply(e) ? metaOf(e.projectId) : undefined;
      return meta ? [teamOf(meta)] : [];
    }),
  );
  const teamMembers = new Map<string, Member[]>();
  for (const tid of teamIds) teamMembers.set(tid, (await readMembers(tid)).members);

  const candidates = entries.map(({ event }) => candidatesOf(event, teamMembers, metaOf(event.projectId)));
  const uids = [...new Set(candidates.flat())];
  const people = await readAll(uids.flatMap((uid) => [userKey(uid), teamsKey(uid)]));

  const deliveries: Delivery[] = [];
  entries.forEach(({ id, event }, i) => {
    const meta = metaOf(event.projectId);
    const header = facts.get(keyText(issueHeaderKey(event.projectId, event.number)));
    if (!meta || !header) return;
    const ck = commentKeyOf(event);
    const comment = ck ? facts.get(keyText(ck)) : undefined;
    for (const userId of candidates[i] ?? []) {
      const user = people.get(keyText(userKey(userId)));
      const teamsItem = people.get(keyText(teamsKey(userId)));
      const teams = teamsItem ? toTeamsItem(teamsItem) : null;
      const emailIntegration =
        event.kind === 'new' ? facts.get(keyText(emailIntegrationKey(event.projectId))) : undefined;
      const when = decide(event, userId, { user, teams, meta, comment, emailIntegration });
      if (!when || !user) continue;
      deliveries.push({
        userId,
        entryId: id,
        when,
        recipient: {
          email: String(user.email),
          firstName: String(user.firstName ?? ''),
          lang: user.lang === 'de' ? 'de' : 'en',
        },
        event: {
          kind: event.kind,
          projectId: event.projectId,
          projectName: String(meta.name ?? ''),
          number: event.number,
          title: issueHeadOf(event.number, header).title,
          ...('by' in event ? { by: event.by.name } : {}),
          ...('by' in event && event.by.token ? { byToken: event.by.token } : {}),
          ...(comment
            ? {
                commentId: String(comment.id ?? ''),
                excerpt: excerptOf(String(comment.body ?? '')),
                internal: comment.visibility === 'internal',
              }
            : {}),
          at: timelineIdTime(id),
        },
      });
    }
  });
  return deliveries;
}
