/**
 * Billing calls of the dashboard (SPEC.md section 7): client/payment and client/profile/business_plan, and
 * the printable invoice of a payment (issue 19).
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { PaymentInput } from '#contracts/billing';
import { TEAM_COOKIE } from '#contracts/cookies';
import { businessRequestSchema } from '#contracts/countries';
import { teamIdParam } from '#contracts/teams';
import { AppError } from '#runtime/errors';
import { type AuthedInput, type InputOf, type RawReply, resourceHandler } from '#runtime/http';
import { readCookie } from '#runtime/session';
import { sourceOf } from '#runtime/source';
import { billingApi } from '../billing/manifest';
import { businessRequest, invoicePage, payments, startCheckout } from '../billing/service';

/** The fields of a multipart (or URL-encoded) form body; files are refused. */
async function formFields(event: APIGatewayProxyEventV2): Promise<Record<string, string>> {
  const type = event.headers['content-type'] ?? '';
  if (!/^(multipart\/form-data|application\/x-www-form-urlencoded)\b/i.test(type))
    throw new AppError('UNSUPPORTED_MEDIA_TYPE');
  const body = Buffer.from(event.body ?? '', event.isBase64Encoded ? 'base64' : 'utf8');
  let form: FormData;
  try {
    form = await new Response(body, { headers: { 'content-type': type } }).formData();
  } catch {
    throw new AppError('INVALID_PARAMETERS');
  }
  const fields: Record<string, string> = {};
  for (const [name, value] of form) {
    if (typeof value !== 'string') throw new AppError('INVALID_PARAMETERS');
    fields[name] = value;
  }
  return fields;
}

/** The team a billing call means (issue 22): the `teamId` it names, else the switcher's team in use. */
const choice = (event: APIGatewayProxyEventV2, requested: string | undefined) => ({
  requested,
  cookie: readCookie(event, TEAM_COOKIE),
});

export const operations = {
  async checkout({ session, body, lang, event }: AuthedInput<PaymentInput>) {
    return { msg: await startCheckout(session.userId, choice(event, body.teamId), body, lang) };
  },
  async payments({ session, query, event }: InputOf<typeof billingApi, 'payments'>) {
    return { msg: await payments(session.userId, choice(event, query.teamId)) };
  },
  async businessRequest({ session, event, lang, log }: AuthedInput) {
    const fields = await formFields(event);
    // The team is taken first (a malformed id: the team in use), so the role is checked before the form:
    // a caller who may not bill is FORBIDDEN, never told what the form lacks.
    const teamId = teamIdParam.safeParse(fields.teamId).data;
    const parse = () => {
      const { teamId: _team, ...input } = businessRequestSchema.parse(fields);
      return input;
    };
    return {
      msg: await businessRequest(session.userId, choice(event, teamId), parse, sourceOf(event), lang, log),
    };
  },
  /** A page to read and print, not JSON: no script may run and nothing is loaded from elsewhere. */
  async invoice({ session, params, lang }: InputOf<typeof billingApi, 'invoice'>): Promise<RawReply> {
    const body = await invoicePage(session.userId, params.number, lang);
    return {
      raw: {
        statusCode: 200,
        headers: {
          'content-type': 'text/html; charset=utf-8',
          'cache-control': 'private, no-store',
          'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
          'x-content-type-options': 'nosniff',
          'referrer-policy': 'no-referrer',
        },
        body,
      },
    };
  },
};

export const handler = resourceHandler(billingApi, operations);
