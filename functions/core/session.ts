/**
 * Session resolution: the place where the cookie becomes a user. The accounts issue replaces the body of
 * `resolveSession` with the hashed-token lookup of DESIGN.md section 6; everything that needs a signed-in
 * client already goes through here (see `needsSession` in core/http.ts).
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';

export interface Session {
  userId: string;
  /** How the session was created; logout tells the dashboard whether to sign out of Google too. */
  via: 'password' | 'google';
}

export const SESSION_COOKIE = 'snag_session';

export function readCookie(event: Pick<APIGatewayProxyEventV2, 'cookies' | 'headers'>, name: string) {
  const pairs = event.cookies ?? event.headers?.cookie?.split(';') ?? [];
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq > 0 && pair.slice(0, eq).trim() === name) return pair.slice(eq + 1).trim();
  }
  return undefined;
}

/** No accounts exist yet, so no cookie names a session: every session-only call answers 401. */
export async function resolveSession(
  event: Pick<APIGatewayProxyEventV2, 'cookies' | 'headers'>,
): Promise<Session | null> {
  const token = readCookie(event, SESSION_COOKIE);
  if (!token) return null;
  return null;
}
