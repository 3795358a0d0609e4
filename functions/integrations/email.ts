/**
 * The email deliverer: one mail through SES to the integration's address with up to 3 copies, plain text
 * and HTML, with the description, page, reporter, device, custom fields, the integration's contact
 * fields, links to the screenshots and files (signed Snag links valid 8 days, links.ts) and a link to the
 * issue in the dashboard. Every visitor value is HTML-escaped in the HTML part.
 */
import { escapeHtml, sendMail } from '../core/mail';
import { type Deliverer, type DeliveryContext, PermanentFailure } from './deliver';

const fieldRows = (ctx: DeliveryContext<'email'>): [string, string][] => {
  const d = ctx.issue.data;
  const device = [d.browser, d.browserVersion].filter(Boolean).join(' ');
  const os = [d.os, d.osVersion].filter(Boolean).join(' ');
  const rows: [string, string][] = [
    ['Page', d.href ?? ''],
    ['Reporter', d.username ?? ''],
    ['Browser', device],
    ['OS', os],
    ['Device', d.deviceType ?? ''],
    ['Screen', d.screenResolution ?? ''],
    ...(d.customFields ?? []).map((f): [string, string] => [f.name, f.value]),
    ...ctx.integration.data.contactFields.map((f): [string, string] => [f.name, f.value]),
  ];
  return rows.filter(([, v]) => v !== '');
};

/** The mail of one issue (exported for the unit test of its escaping). */
export function issueMail(ctx: DeliveryContext<'email'>) {
  const { issue, project } = ctx;
  const title = issue.title || issue.msg.split('\n')[0]?.slice(0, 80) || `Issue #${issue.number}`;
  const subject = `[${project.name}] #${issue.number} ${title}`.replace(/[\r\n]+/g, ' ').slice(0, 200);
  const rows = fieldRows(ctx);
  const links = [...ctx.screenshots, ...ctx.files];
  const text = [
    `New issue #${issue.number} on ${project.name}`,
    '',
    issue.msg,
    '',
    ...rows.map(([k, v]) => `${k}: ${v}`),
    ...(links.length
      ? ['', 'Attachments (links valid 7 days):', ...links.map((l) => `- ${l.label}: ${l.url}`)]
      : []),
    '',
    `Open in Snag: ${ctx.issueUrl}`,
  ].join('\n');
  const e = escapeHtml;
  const html = [
    `<h2>New issue #${issue.number} on ${e(project.name)}</h2>`,
    `<p style="white-space:pre-wrap">${e(issue.msg)}</p>`,
    rows.length
      ? `<table>${rows.map(([k, v]) => `<tr><th align="left">${e(k)}</th><td>${e(v)}</td></tr>`).join('')}</table>`
      : '',
    links.length
      ? `<p>Attachments (links valid 7 days):</p><ul>${links
          .map((l) => `<li><a href="${e(l.url)}">${e(l.label)}</a></li>`)
          .join('')}</ul>`
      : '',
    `<p><a href="${e(ctx.issueUrl)}">Open in Snag</a></p>`,
  ].join('\n');
  return { subject, text, html };
}

export const emailDeliverer: Deliverer<'email'> = async (ctx) => {
  // Sent once: a recorded message id means an earlier attempt got through.
  if (ctx.vendorId) return { vendorId: ctx.vendorId };
  const { email, cc } = ctx.integration.data;
  if (!email) throw new PermanentFailure('No email address is configured');
  const mail = issueMail(ctx);
  const id = await sendMail({ to: email, cc, ...mail });
  return { vendorId: id ?? `sent:${ctx.deliveryId}` };
};
