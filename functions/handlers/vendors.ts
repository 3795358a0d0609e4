/**
 * The vendor authorisation calls (issue 11; functions/integrations/vendor-auth.ts): every token vendor's
 * list (GitLab and Jira projects, GitHub's repositories, Linear's teams); for every OAuth vendor of the
 * catalogue the OAuth calls (authorise URL, code exchange, channel or project list), and every vendor's reset.
 */

import type { OAuthVendor, TokenVendor, VendorName } from '#contracts/integration-catalogue';
import { type OAuthExchangeBody, vendorListBodies } from '#contracts/vendor-auth';
import { type AuthedInput, resourceHandler } from '#runtime/http';
import { vendorsApi } from '../integrations/manifest';
import * as auth from '../integrations/vendor-auth';

/** A call about one project's vendor: the pipeline has parsed its `{vendor}` and `{siteId}`. */
type VendorInput<V, B = unknown> = AuthedInput<B, unknown, { vendor: V; siteId: string }>;

export const operations = {
  /** `{vendor}/{list}`: the body is read with the vendor's own schema (a bad one: 400, naming its fields). */
  async list({ session, params, body, log }: AuthedInput<unknown, unknown, { vendor: TokenVendor }>) {
    const input = vendorListBodies[params.vendor].parse(body);
    return { msg: await auth.listVendorChoices(session.userId, params.vendor, input, log) };
  },
  async oauthAuthorize({ session, params }: VendorInput<OAuthVendor>) {
    return { msg: await auth.oauthAuthorize(session.userId, session.id, params.vendor, params.siteId) };
  },
  async oauthAuthentication({ session, params, body, log }: VendorInput<OAuthVendor, OAuthExchangeBody>) {
    const { vendor, siteId } = params;
    return { msg: await auth.oauthExchange(session.userId, session.id, vendor, siteId, body, log) };
  },
  async oauthChannels({ session, params, log }: VendorInput<OAuthVendor>) {
    return { msg: await auth.oauthChannels(session.userId, params.vendor, params.siteId, log) };
  },
  async reset({ session, params, log }: VendorInput<VendorName>) {
    return { msg: await auth.resetVendor(session.userId, params.vendor, params.siteId, log) };
  },
};

export const handler = resourceHandler(vendorsApi, operations);
