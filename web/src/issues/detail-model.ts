/**
 * The issue detail's triage rules (issue 23), free of React so unit tests cover them directly: the label
 * colour presets, the words an activity entry is told in, the `@` mention completion, and which comments
 * the caller may change. Label chip contrast and people are the list's (triage-model.ts).
 */

import type { Role } from '#contracts/teams';
import { type ActivityView, type Actor, type Label, triageLimits } from '#contracts/triage';
import type { Person } from './triage-model';

export type { Person };

/** A member of the project's team, with the role when the caller may see it (not for a GUEST). */
export type TeamPerson = Person & { role?: Role; username?: string };

/** The caller's user id in a team, from the people it lists (null when it cannot tell). */
export function selfIn(
  people: readonly TeamPerson[] | undefined,
  me: { username: string; firstName: string; lastName: string } | undefined,
): string | null {
  if (!people || !me) return null;
  const byEmail = people.find((p) => p.username && p.username === me.username);
  if (byEmail) return byEmail.userId;
  // A GUEST sees names only: its own entry is the one with its name, when that is unambiguous.
  const named = people.filter((p) => p.firstName === me.firstName && p.lastName === me.lastName);
  return named.length === 1 ? (named[0]?.userId ?? null) : null;
}

/** The colour picker's presets: distinct hues (chip text by triage-model's labelTextColor). */
export const labelPresets = [
  '#e03131',
  '#f08c00',
  '#fab005',
  '#2f9e44',
  '#0c8599',
  '#1971c2',
  '#6741d9',
  '#c2255c',
  '#495057',
  '#ced4da',
] as const;

/** "First Last" with single spaces: the mention form the server matches. */
export const fullName = (p: Pick<Person, 'firstName' | 'lastName'>) =>
  `${p.firstName} ${p.lastName}`.replace(/\s+/g, ' ').trim();

/** The lookups an activity line needs to name what changed. */
export interface ActivityNames {
  /** A user id's name; null for someone no longer in the team. */
  person: (userId: string) => string | null;
  label: (labelId: string) => Label | undefined;
}

/**
 * An activity line as an i18n key and its values; the screen translates status and priority names. `via`
 * names the API token the actor acted through: the screen tells the actor as "Ada via API token CI".
 */
export interface ActivityWords {
  key: string;
  values: Record<string, string | number>;
  via?: string;
  /** The member acted through the browser extension (issue 34): "Ada via extension". */
  viaExtension?: boolean;
}

const ids = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x) => typeof x === 'string') : []);

/** A value that names a person: a user id, or an object with a name (an actor), or null. */
function personOf(v: unknown, names: ActivityNames): string | null {
  if (typeof v === 'string') return names.person(v);
  if (v && typeof v === 'object' && typeof (v as { name?: unknown }).name === 'string')
    return (v as { name: string }).name;
  return null;
}

/**
 * The words of one activity entry, in plain language ("Jane set priority to High", "Jane via API token CI
 * set priority to High"): the key below `activity.`, its values, and the token of a change made with one.
 * Unknown values (a label deleted since, a member who left) get a neutral word, so an old entry never
 * shows an id.
 */
export function activityWords(entry: ActivityView, names: ActivityNames): ActivityWords {
  const words = wordsOf(entry, names);
  if (!('actor' in words.values)) return words;
  const via = viaTokenOf(entry.actor);
  if (via) return { ...words, via };
  return viaExtensionOf(entry.actor) ? { ...words, viaExtension: true } : words;
}

function wordsOf(entry: ActivityView, names: ActivityNames): ActivityWords {
  const actor = actorName(entry.actor);
  switch (entry.kind) {
    case 'status':
    case 'priority':
      return { key: entry.kind, values: { actor, to: String(entry.to ?? '') } };
    case 'assignee': {
      if (entry.to === null || entry.to === undefined) return { key: 'unassigned', values: { actor } };
      const to = personOf(entry.to, names);
      return to ? { key: 'assigned', values: { actor, to } } : { key: 'assignedFormer', values: { actor } };
    }
    case 'labels': {
      const before = ids(entry.from);
      const after = ids(entry.to);
      const name = (id: string) => names.label(id)?.name;
      const added = after.filter((id) => !before.includes(id));
      const removed = before.filter((id) => !after.includes(id));
      const list = (xs: string[]) => xs.map((id) => name(id) ?? '').filter(Boolean);
      const a = list(added);
      const r = list(removed);
      // Deleted labels are left unnamed: the count still says something changed.
      if (added.length && removed.length)
        return { key: 'labelsChanged', values: { actor, added: a.join(', '), removed: r.join(', ') } };
      if (added.length)
        return { key: 'labelsAdded', values: { actor, labels: a.join(', '), count: a.length } };
      if (removed.length)
        return { key: 'labelsRemoved', values: { actor, labels: r.join(', '), count: r.length } };
      return { key: 'labelsCleared', values: { actor } };
    }
    case 'dueDate':
      return typeof entry.to === 'string'
        ? { key: 'dueDate', values: { actor, to: entry.to } }
        : { key: 'dueDateCleared', values: { actor } };
    case 'delivered':
      return { key: 'delivered', values: { integration: entry.integration ?? '' } };
    case 'delivery.failed':
      return {
        key: entry.reason ? 'deliveryFailed' : 'deliveryFailedNoReason',
        values: { integration: entry.integration ?? '', reason: entry.reason ?? '' },
      };
    case 'created':
      // The widget's report: the reporter is a visitor without an account, named by no one.
      return actorOf(entry) === 'reporter'
        ? { key: 'reported', values: {} }
        : { key: 'created', values: { actor } };
    case 'comment.deleted':
      return { key: 'commentDeleted', values: { actor } };
    // Issue 37: the other issue's number, on the duplicate ("merged into #12") and on the primary.
    case 'merged':
    case 'duplicate.added':
      return {
        key: entry.kind === 'merged' ? 'merged' : 'duplicateAdded',
        values: { actor, n: numberOf(entry.to) },
      };
    case 'unmerged':
    case 'duplicate.removed':
      // The primary's deletion released it (functions/issues/delete-issue.ts): the reason, not the system, is news.
      if (entry.kind === 'unmerged' && entry.reason === 'primary.deleted')
        return { key: 'unmergedPrimaryDeleted', values: { n: numberOf(entry.from) } };
      return {
        key: entry.kind === 'unmerged' ? 'unmerged' : 'duplicateRemoved',
        values: { actor, n: numberOf(entry.from) },
      };
    // A duplicate moved with its primary by the system (docs/similar.md "Following the primary"): the
    // primary's number is the news, and the status it went back to.
    case 'followed':
      return { key: 'followed', values: { n: numberOf(entry.to) } };
    case 'unfollowed':
      return { key: 'unfollowed', values: { n: numberOf(entry.from), to: String(entry.to ?? '') } };
    case 'linked':
      // The project rule linkExactMatches: the other issue's number; the reason is always page and error.
      return { key: 'linked', values: { to: String(entry.to ?? '') } };
    default:
      return { key: entry.kind, values: { actor } };
  }
}

const actorOf = (entry: ActivityView) => entry.actor.kind;

/** An issue number an entry carries, as text ('?' should an entry ever lack it). */
const numberOf = (v: unknown) => (typeof v === 'number' ? String(v) : '?');

/**
 * Where a synced change came from (issue 24): the tracker issue's address of an actor of kind tracker,
 * when it is an http(s) address (it came in a tracker's webhook: anything else is no link), with its vendor.
 */
export function trackerLinkOf(actor: Actor): { url: string; vendor: string } | null {
  if (actor.kind !== 'tracker' || !actor.url || !/^https?:\/\//i.test(actor.url)) return null;
  return { url: actor.url, vendor: actor.vendor ?? '' };
}

/** An actor's name as it was then; an empty one (never expected) reads as "Someone" in the screen. */
export const actorName = (actor: Actor) => actor.name.trim();

/**
 * The API token a change or comment was made through (issue 25): its name, shown after the creator's as
 * "via API token <name>". Null for everyone else, and for a token made before its creator was kept (its
 * `name` already reads "API token <name>").
 */
export const viaTokenOf = (actor: Actor): string | null =>
  (actor.kind === 'token' && actor.token?.trim()) || null;

/** Whether a member acted through the browser extension (issue 34): shown as "<name> via extension". */
export const viaExtensionOf = (actor: Actor): boolean => actor.kind === 'member' && actor.via === 'extension';

/**
 * The mention being typed at the caret: the `@` that starts it (at the start or after a space or line
 * break) and the text typed since, up to two spaces (first and last names with a space inside). Null when
 * the caret is not in one.
 */
export function mentionAt(text: string, caret: number): { start: number; query: string } | null {
  const before = text.slice(0, caret);
  const at = before.lastIndexOf('@');
  if (at < 0) return null;
  if (at > 0 && !/\s/.test(before[at - 1] ?? '')) return null;
  const query = before.slice(at + 1);
  if (query.length > 60 || /[\n@]/.test(query) || (query.match(/ /g) ?? []).length > 2) return null;
  if (query.startsWith(' ')) return null;
  return { start: at, query };
}

/** Members whose name starts with the query, or has a word that does (case-insensitive), at most 8. */
export function mentionMatches<P extends Person>(people: readonly P[], query: string): P[] {
  const q = query.toLocaleLowerCase().trim();
  return people
    .filter((p) => {
      const name = fullName(p).toLocaleLowerCase();
      return name.startsWith(q) || name.split(' ').some((w) => w.startsWith(q));
    })
    .sort((a, b) => fullName(a).localeCompare(fullName(b)))
    .slice(0, 8);
}

/** The text with the mention at `start…caret` replaced by `@First Last ` and the caret after it. */
export function insertMention(
  text: string,
  start: number,
  caret: number,
  person: Person,
): { text: string; caret: number } {
  const inserted = `@${fullName(person)} `;
  return { text: text.slice(0, start) + inserted + text.slice(caret), caret: start + inserted.length };
}

/** Authors edit their own comments; ADMIN and OWNER may also delete others' (issue 23). */
export function commentRights(
  author: Actor,
  self: string | null,
  role: Role,
): { edit: boolean; remove: boolean } {
  const own = author.kind === 'member' && !!self && author.id === self;
  return { edit: own, remove: own || role === 'OWNER' || role === 'ADMIN' };
}

/** The counter under the composer shows from this many characters on (the limit is 5,000). */
export const countFrom = 4500;

/**
 * How many characters a comment is over the limit (0 within it). The fields have no `maxLength`: a paste
 * that is too long stays whole and is refused with this, never silently cut.
 */
export const commentExcess = (text: string): number => Math.max(0, text.length - triageLimits.commentMax);
