/**
 * The readable companion of the HttpOnly session cookie (runtime/session.ts sets both): the dashboard reads it
 * to tell a visitor who never signed in from one whose session it must ask the API about.
 */
export const SIGNED_IN_COOKIE = 'snag_signed_in';

/**
 * The team the dashboard works in, written by its team switcher (issue 22, decision T8): a team id, readable,
 * SameSite=Lax. It grants nothing (every call still checks the membership); it only picks the default team
 * of calls that take an optional `teamId` (`GET|POST client/website`, the billing calls, `GET client/profile`).
 */
export const TEAM_COOKIE = 'snag_team';
