/**
 * Seats (issue 22, docs/data-model.md 4.12 "Seats", decision T3): a team's members (OWNER, ADMINs,
 * MEMBERs) and guests are counted exactly by TEAM's `memberCount` and `guestCount`, changed only in the
 * transactions that add, remove or re-role someone. Each of those carries `seatCondition(kind)` on TEAM,
 * which encodes the plan table (`planSeats`) and `effectivePlan`'s lapse rule in DynamoDB's own terms, so
 * no read of TEAM decides and parallel accepts serialise on the TEAM item.
 *
 * A lapsed plan counts as Free for every new seat and removes nobody: a team above Free's seats keeps its
 * members and guests, and every invite, accept or role change that needs a member seat is refused (Free
 * has none beyond the owner), one that needs a guest seat while `guestCount >= 3` (SEAT_LIMIT).
 */
import { planSeats } from '#contracts/plans';
import type { Role } from '#contracts/teams';
import { nowMs } from '#runtime/time';

export type SeatKind = 'member' | 'guest';

/** The seat a role takes: GUEST a guest seat, every other role a member seat. */
export const seatOf = (role: Role): SeatKind => (role === 'GUEST' ? 'guest' : 'member');

/** The TEAM counter of a seat kind. */
export const seatCounter = (kind: SeatKind) => (kind === 'guest' ? 'guestCount' : 'memberCount');

export interface SeatCondition {
  expression: string;
  names: Record<string, string>;
  values: Record<string, unknown>;
}

/**
 * The condition on `TEAM#<tid>/TEAM` that holds while the team has a free seat of `kind` (before the
 * write's own ADD): the team exists and is not being deleted, and its count is below the effective plan's
 * seats. `planExpire` is an ISO-8601 string (a date-only one compares as its midnight, as `effectivePlan`
 * reads it); a TEAM without `plan` is Free. Names and values are prefixed `seat` so the condition can be
 * joined to an Update's own expression.
 */
export function seatCondition(kind: SeatKind, now = nowMs()): SeatCondition {
  const free = planSeats.FREE_PLAN;
  const starter = planSeats.BASIC_PLAN;
  const names = { '#seatPlan': 'plan', '#seatExpire': 'planExpire', '#seatCount': seatCounter(kind) };
  const paid =
    'attribute_exists(#seatPlan) AND #seatPlan <> :seatFree AND (attribute_not_exists(#seatExpire) OR ' +
    'attribute_type(#seatExpire, :seatNull) OR #seatExpire > :seatNow)';
  const base = 'attribute_exists(pk) AND attribute_not_exists(deleting)';
  const values: Record<string, unknown> = {
    ':seatFree': 'FREE_PLAN',
    ':seatNull': 'NULL',
    ':seatNow': new Date(now).toISOString(),
  };
  if (kind === 'member') {
    // Starter's members are limited, Business's not (planSeats: 5 and null).
    values[':seatFreeMax'] = free.members;
    values[':seatBusiness'] = 'BUSINESS_PLAN';
    values[':seatStarterMax'] = starter.members;
    return {
      expression: `${base} AND (#seatCount < :seatFreeMax OR ((${paid}) AND (#seatPlan = :seatBusiness OR #seatCount < :seatStarterMax)))`,
      names,
      values,
    };
  }
  // Guests: limited on Free only (Starter and Business: unlimited).
  values[':seatFreeMax'] = free.guests;
  return { expression: `${base} AND (#seatCount < :seatFreeMax OR (${paid}))`, names, values };
}
