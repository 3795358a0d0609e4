/**
 * The widget's report body (`POST /api/website/{id}/request`, contracts/intake-schemas.ts) under the v1
 * names (`POST /api/v1/projects/{id}/issues`, contracts/api-v1.ts): the extension files what the widget's
 * own app assembled, so both paths send the same fields under the same rules.
 */
import type { z } from 'zod';
import type { v1IssueCreateBody } from '#contracts/api-v1';
import type { ReportInput } from '#contracts/intake-schemas';

export type V1IssueCreateInput = z.input<typeof v1IssueCreateBody>;

export function toV1Issue(report: ReportInput): V1IssueCreateInput {
  const body: V1IssueCreateInput = {
    description: report.msg,
    pageUrl: report.href ?? '',
    device: {
      browser: report.browser,
      browserVersion: report.browserVersion,
      os: report.os,
      osVersion: report.osVersion,
      deviceType: report.deviceType,
      screenResolution: report.screenResolution,
    },
    customFields: report.customFields ?? [],
    screenshots: report.screenshots ?? [],
    // The widget names a file `original_name`; v1 calls it `name`.
    files: (report.files ?? []).map((f) => ({ key: f.key, name: f.original_name })),
    logs: report.logs ?? [],
    steps: report.steps ?? [],
    sentAt: report.sentAt,
    language: report.language,
  };
  // The member is the reporter (their token says who): an address typed in the form goes along only when
  // there is one, as the widget's is optional.
  if (report.username) body.reporterEmail = report.username;
  if (report.title) body.title = report.title;
  if (report.replay) body.replay = report.replay;
  return body;
}
