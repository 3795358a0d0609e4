/**
 * The readable companion of the HttpOnly session cookie (runtime/session.ts sets both): the dashboard reads it
 * to tell a visitor who never signed in from one whose session it must ask the API about.
 */
export const SIGNED_IN_COOKIE = 'snag_signed_in';
