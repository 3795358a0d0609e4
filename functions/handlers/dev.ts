/**
 * Local developer tools, served by the local stack only (`localOnly` in the route table, so CDK never
 * deploys them, and refused here as well should the stage be anything but local).
 * GET /api/dev/emails: the mail the SES stand-in has accepted, newest first.
 * POST /api/dev/plan: sets a client's plan for some days (before billing exists).
 */
import type { z } from 'zod';
import type { devEmailsQuery, devPlanSchema } from '#contracts/schemas';
import { getConfig, isLocal } from '#runtime/config';
import { AppError } from '#runtime/errors';
import { type RequestInput, resourceHandler } from '#runtime/http';
import { DAY, nowMs } from '#runtime/time';
import { grantPlan } from '../billing/grant';
import { operatorTeam } from '../billing/service';
import { devApi } from '../platform/dev-manifest';

export interface DevEmail {
  to: string[];
  cc: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
  date: string;
}

interface StoredEmail {
  from: string;
  destination: { to: string[]; cc: string[] };
  subject: string;
  body: { html?: string; text?: string };
  at: number;
}

/** Addresses may arrive as `Name <a@b>`; compare the bare address, case-insensitively. */
const bare = (address: string) => (/<([^>]+)>/.exec(address)?.[1] ?? address).trim().toLowerCase();

export const operations = {
  async emails({ query }: RequestInput<undefined, z.infer<typeof devEmailsQuery>>) {
    const endpoint = getConfig().SES_ENDPOINT;
    if (!isLocal() || !endpoint) throw new AppError('NOT_FOUND');
    const res = await fetch(new URL('/store', endpoint), { signal: AbortSignal.timeout(5000) });
    if (!res.ok) throw new Error(`SES stand-in answered ${res.status}`);
    const { emails } = (await res.json()) as { emails: StoredEmail[] };
    const wanted = query.to ? bare(query.to) : undefined;
    const list: DevEmail[] = emails
      .map((e) => ({
        to: e.destination.to,
        cc: e.destination.cc,
        from: e.from,
        subject: e.subject,
        text: e.body.text ?? '',
        html: e.body.html ?? '',
        date: new Date(e.at * 1000).toISOString(),
        at: e.at,
      }))
      .filter((e) => !wanted || e.to.some((t) => bare(t) === wanted))
      // Stable newest-first: the store is in arrival order, and `at` has whole-second resolution.
      .reverse()
      .map(({ at: _at, ...e }) => e);
    return { msg: list };
  },
  async plan({ body }: RequestInput<z.infer<typeof devPlanSchema>>) {
    if (!isLocal()) throw new AppError('NOT_FOUND');
    // The plan for `days` from now (Free never expires), granted as an operator's would be: to the user's
    // team in use (their personal team), or the team `teamId` names.
    const { user, team } = await operatorTeam(body.username, body.teamId);
    const planExpire = body.plan === 'FREE_PLAN' ? null : new Date(nowMs() + body.days * DAY).toISOString();
    await grantPlan(team.id, body.plan, planExpire);
    return { msg: { username: user.email, teamId: team.id, plan: body.plan, planExpire } };
  },
};

export const handler = resourceHandler(devApi, operations);
