/**
 * The browser extension's connection (contracts/extension.ts, docs/extension-connection.md): the member
 * approves on the dashboard's connect page (a one-time code bound to them and the extension's PKCE
 * challenge), the extension exchanges code and verifier for a token of its own, and the member lists and
 * revokes their connections under Profile.
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { ExtensionConnectAnswer, ExtensionConnection, ExtensionTokenAnswer } from '#contracts/extension';
import { getItems } from '#runtime/db';
import { AppError } from '#runtime/errors';
import { type InputOf, type OpName, type RawReply, resourceHandler } from '#runtime/http';
import { rateLimit } from '#runtime/rate-limit';
import { sourceOf } from '#runtime/source';
import { consumeExtensionCode, issueExtensionCode, verifierMatches } from '../accounts/extension-codes';
import {
  connectionOf,
  extensionTokenKey,
  listExtensionTokens,
  mintExtensionToken,
  revokeExtensionToken,
  toExtensionToken,
} from '../accounts/extension-tokens';
import { extensionApi } from '../accounts/manifest';
import { extensionConnectsPerMember, extensionExchangesPerSource, limitFor } from '../accounts/throttle';
import { userKey } from '../accounts/user';
import { auditPut, memberActor } from '../teams/audit';
import { teamsKey, toTeamsItem } from '../teams/member';
import { teamsOf } from '../teams/team';

type In<Op extends OpName<typeof extensionApi>> = InputOf<typeof extensionApi, Op>;

/**
 * The exchange is called by the extension's background worker from its own origin (chrome-extension://…,
 * moz-extension://…), which no list could name. Any origin may read its answers: it takes no cookie and
 * sets none, and what it answers is worth something only to whoever holds the verifier.
 */
const corsHeaders = { 'access-control-allow-origin': '*' };
const preflightHeaders = {
  ...corsHeaders,
  'access-control-allow-methods': 'POST',
  'access-control-allow-headers': 'content-type',
  'access-control-max-age': '600',
};

/** Every answer of the exchange, its refusals included, readable by the extension. */
async function admit(request: {
  event: APIGatewayProxyEventV2;
  headers: Record<string, string>;
}): Promise<undefined> {
  if (request.event.rawPath === '/api/extension/token') Object.assign(request.headers, corsHeaders);
  return undefined;
}

export const operations = {
  /** Session, the code with the member's approval count in one transaction: 2 requests. */
  async connect({ session, body, log }: In<'connect'>): Promise<{ msg: ExtensionConnectAnswer }> {
    const code = await issueExtensionCode(
      { userId: session.userId, challenge: body.challenge, browser: body.browser },
      limitFor(extensionConnectsPerMember, session.userId),
    );
    log.info('extension approved', { browser: body.browser });
    return { msg: { code } };
  },
  /**
   * The source's count, the code's conditional delete, the member's TEAMS (each team logs the connection),
   * the member, the slots, the transaction: 6 requests.
   * Every code that does not work answers the same EXTENSION_CODE_INVALID.
   */
  async token({ body, event, log }: In<'token'>): Promise<{ msg: ExtensionTokenAnswer }> {
    await rateLimit(limitFor(extensionExchangesPerSource, sourceOf(event)));
    const grant = await consumeExtensionCode(body.code);
    if (!grant || !verifierMatches(body.verifier, grant.challenge))
      throw new AppError('EXTENSION_CODE_INVALID');
    // The connection acts in every team of the member, so each team's log records it (decision AU-2).
    const teams = Object.keys((await teamsOf(grant.userId)).teams);
    const minted = await mintExtensionToken(grant.userId, grant.browser, (token, user) =>
      teams.map((teamId) =>
        auditPut(teamId, {
          kind: 'extension.connected',
          actor: memberActor(grant.userId, user as unknown as Record<string, unknown>),
          target: token.browser,
          detail: { connection: token.id, expires: new Date(token.expiresAt).toISOString() },
        }),
      ),
    ).catch((err: unknown) => {
      // The member deleted their account between approval and exchange: the code is worth nothing.
      if (err instanceof AppError && err.code === 'NOT_FOUND') throw new AppError('EXTENSION_CODE_INVALID');
      throw err;
    });
    log.info('extension connected', { extensionId: minted.stored.id });
    return {
      msg: {
        token: minted.token,
        expiresAt: new Date(minted.stored.expiresAt).toISOString(),
        user: minted.user,
      },
    };
  },
  async preflight(): Promise<RawReply> {
    return { raw: { statusCode: 204, headers: { ...preflightHeaders, 'cache-control': 'no-store' } } };
  },
  /** Session, the slots, one BatchGetItem: 3 requests. */
  async list({ session }: In<'list'>): Promise<{ msg: ExtensionConnection[] }> {
    return { msg: (await listExtensionTokens(session.userId)).map(connectionOf) };
  },
  /**
   * Session, one BatchGetItem (the connection, USER, TEAMS: who and where to log it), one transaction: the
   * next v1 call with it is a 401 invalid_token.
   */
  async revoke({ session, params, log }: In<'revoke'>): Promise<{ msg: null }> {
    const [found, user, teamsItem] = await getItems([
      extensionTokenKey(params.id),
      userKey(session.userId),
      teamsKey(session.userId),
    ]);
    // Another member's id or one that is gone is refused below (NOT_FOUND) and logged nowhere.
    const token = found && found.userId === session.userId ? toExtensionToken(found) : null;
    const teams = token && teamsItem ? Object.keys(toTeamsItem(teamsItem).teams) : [];
    await revokeExtensionToken(
      session.userId,
      params.id,
      teams.map((teamId) =>
        auditPut(teamId, {
          kind: 'extension.revoked',
          actor: memberActor(session.userId, user),
          target: token?.browser ?? '',
          detail: { connection: params.id },
        }),
      ),
    );
    log.info('extension revoked', { extensionId: params.id });
    return { msg: null };
  },
};

export const handler = resourceHandler(extensionApi, operations, { admit });
