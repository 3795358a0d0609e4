/**
 * The email deliverer: one mail through SES to the integration's address with up to 3 copies, plain text
 * and HTML in the layout of Snag's other mails (runtime/mail.ts `mailPage`), in the language of the project
 * owner's account: a preview of the first screenshot, the description, page, reporter, device, custom
 * fields, the integration's contact fields, links to the screenshots and files (signed Snag links,
 * links.ts) and a button to the issue in the dashboard. Every visitor value is HTML-escaped in the HTML
 * part, and the subject is one line.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Lang } from '#contracts/errors';
import { db } from '#runtime/aws/dynamo';
import { getConfig } from '#runtime/config';
import { getItems, tableName } from '#runtime/db';
import { escapeHtml, mailButton, mailMuted, mailPage, sendMail } from '#runtime/mail';
import { newIssueMailOf } from '../accounts/notifications';
import { userKey } from '../accounts/user';
import { readerRole } from '../issues/notify-recipients';
import { teamOf, teamsKey, toTeamsItem } from '../teams/member';
import { readMembers } from '../teams/team';
import { type Deliverer, type DeliveryContext, PermanentFailure } from './deliver';
import { FILE_LINK_DAYS } from './links';
import { numbered, replayNote, stepSentences, stepTexts } from './steps';

const texts = {
  en: {
    heading: (n: number, project: string) => `New issue #${n} on ${project}`,
    page: 'Page',
    reporter: 'Reporter',
    browser: 'Browser',
    os: 'OS',
    device: 'Device',
    screen: 'Screen',
    noDescription: 'No description',
    screenshot: 'Screenshot of the page',
    attachments: `Screenshots and files (links valid ${FILE_LINK_DAYS} days)`,
    open: 'Open in Snag',
    footer: (project: string) =>
      `You receive this mail because new reports of ${project} are sent to this address. Team members choose under Profile → Email notifications; the address is changed or switched off under Integrations → Email:`,
  },
  de: {
    heading: (n: number, project: string) => `Neue Meldung #${n} für ${project}`,
    page: 'Seite',
    reporter: 'Gemeldet von',
    browser: 'Browser',
    os: 'Betriebssystem',
    device: 'Gerät',
    screen: 'Bildschirm',
    noDescription: 'Keine Beschreibung',
    screenshot: 'Bildschirmfoto der Seite',
    attachments: `Bildschirmfotos und Dateien (Links ${FILE_LINK_DAYS} Tage gültig)`,
    open: 'In Snag öffnen',
    footer: (project: string) =>
      `Sie erhalten diese E-Mail, weil neue Meldungen für ${project} an diese Adresse gehen. Teammitglieder wählen unter Profil → E-Mail-Benachrichtigungen; die Adresse ändern oder abschalten können Sie unter Integrationen → E-Mail:`,
  },
} satisfies Record<Lang, unknown>;

const fieldRows = (ctx: DeliveryContext<'email'>, t: (typeof texts)[Lang]): [string, string][] => {
  const d = ctx.issue.data;
  const browser = [d.browser, d.browserVersion].filter(Boolean).join(' ');
  const os = [d.os, d.osVersion].filter(Boolean).join(' ');
  const rows: [string, string][] = [
    [t.page, d.href ?? ''],
    [t.reporter, d.username ?? ''],
    [t.browser, browser],
    [t.os, os],
    [t.device, d.deviceType ?? ''],
    [t.screen, d.screenResolution ?? ''],
    ...(d.customFields ?? []).map((f): [string, string] => [f.name, f.value]),
    ...ctx.integration.data.contactFields.map((f): [string, string] => [f.name, f.value]),
  ];
  return rows.filter(([, v]) => v !== '');
};

/** The mail of one issue, in `lang` (exported for the unit test of its escaping and languages). */
export function issueMail(ctx: DeliveryContext<'email'>, lang: Lang = 'en') {
  const t = texts[lang];
  const { issue, project } = ctx;
  const title = issue.title || issue.msg.split('\n')[0]?.slice(0, 80) || `#${issue.number}`;
  const subject = `[${project.name}] #${issue.number} ${title}`.replace(/[\r\n]+/g, ' ').slice(0, 200);
  const rows = fieldRows(ctx, t);
  const links = [...ctx.screenshots, ...ctx.files];
  // The preview is the first image among the screenshots, loaded through its signed link (no video).
  const preview = ctx.screenshots.find((s) => /^(png|jpe?g|image\/)/.test(s.type));
  const settings = `${getConfig().APP_ORIGIN}/profile/integrations/${project.id}/email`;
  // The steps and the replay's link in the owner's language (steps.ts), labels escaped in the HTML part.
  const st = stepTexts(lang);
  const steps = stepSentences(issue, { text: (label) => label }, lang);
  const replay = ctx.replay;
  const note = replay ? replayNote(replay, FILE_LINK_DAYS, lang) : '';
  const text = [
    t.heading(issue.number, project.name),
    '',
    issue.msg || t.noDescription,
    '',
    ...rows.map(([k, v]) => `${k}: ${v}`),
    ...(steps.length ? ['', `${st.heading}:`, ...numbered(steps)] : []),
    ...(replay ? ['', `${st.watch}: ${replay.url}`, note] : []),
    ...(links.length ? ['', `${t.attachments}:`, ...links.map((l) => `- ${l.label}: ${l.url}`)] : []),
    '',
    `${t.open}: ${ctx.issueUrl}`,
    '',
    '--',
    `${t.footer(project.name)} ${settings}`,
  ].join('\n');
  const e = escapeHtml;
  const cell = 'padding:4px 12px 4px 0;vertical-align:top';
  const html = mailPage(
    [
      `<h2 style="font-size:18px;margin:0 0 12px">${e(t.heading(issue.number, project.name))}</h2>`,
      preview
        ? `<p><a href="${e(preview.url)}"><img src="${e(preview.url)}" alt="${e(t.screenshot)}" width="560" style="display:block;width:100%;max-width:560px;height:auto;border:1px solid #e5e7eb;border-radius:6px"></a></p>`
        : '',
      `<p style="white-space:pre-wrap">${e(issue.msg || t.noDescription)}</p>`,
      rows.length
        ? `<table style="border-collapse:collapse;font-size:14px">${rows
            .map(
              ([k, v]) =>
                `<tr><th align="left" style="${cell};color:#6b7280;font-weight:600">${e(k)}</th><td style="${cell};word-break:break-word">${e(v)}</td></tr>`,
            )
            .join('')}</table>`
        : '',
      steps.length
        ? `<p style="margin:16px 0 4px;font-weight:600">${e(st.heading)}</p><ol>${steps
            .map((step) => `<li>${e(step)}</li>`)
            .join('')}</ol>`
        : '',
      replay ? `<p><a href="${e(replay.url)}">${e(st.watch)}</a><br>${e(note)}</p>` : '',
      links.length
        ? `<p>${e(t.attachments)}:</p><ul>${links
            .map((l) => `<li><a href="${e(l.url)}">${e(l.label)}</a></li>`)
            .join('')}</ul>`
        : '',
      mailButton(ctx.issueUrl, t.open),
      mailMuted(
        `${e(t.footer(project.name))} <a href="${e(settings)}" style="color:#6b7280">${e(settings)}</a>`,
      ),
    ]
      .filter(Boolean)
      .join('\n'),
  );
  return { subject, text, html };
}

/**
 * The owner's language: the account's (USER `lang`, which billing keeps), else the dashboard's when the
 * project was created, else English.
 */
async function ownerLang(project: DeliveryContext['project']): Promise<Lang> {
  const out = await db().send(
    new GetCommand({
      TableName: tableName(),
      Key: userKey(project.ownerId),
      ProjectionExpression: '#l',
      ExpressionAttributeNames: { '#l': 'lang' },
    }),
  );
  const lang = out.Item?.lang ?? project.lang;
  return lang === 'de' ? 'de' : 'en';
}

/**
 * The integration's addresses less those of team members whose own "New issues" setting is not "at once"
 * (decision Tr-N8): a member's setting decides their mails about new reports, and when it says at once,
 * this mail is the one they get (the notification flush leaves them out). Any other address (not a
 * member's, or a member who may not read the project) is mailed as configured. Requests: one Query of the
 * team's members, one BatchGetItem of their USER and TEAMS items.
 */
async function addressees(ctx: DeliveryContext<'email'>): Promise<string[]> {
  const { email, cc } = ctx.integration.data;
  const all = [email, ...cc].filter(Boolean);
  const { members } = await readMembers(teamOf(ctx.project));
  const items = await getItems(members.flatMap((m) => [userKey(m.userId), teamsKey(m.userId)]));
  const left = new Set<string>();
  members.forEach((m, i) => {
    const user = items[2 * i];
    const teams = items[2 * i + 1];
    if (typeof user?.email !== 'string') return;
    if (!readerRole(m.userId, teams ? toTeamsItem(teams) : null, ctx.project)) return;
    if (newIssueMailOf(user, true) !== 'instant') left.add(user.email.toLowerCase());
  });
  return all.filter((a) => !left.has(a.toLowerCase()));
}

export const emailDeliverer: Deliverer<'email'> = async (ctx) => {
  // Sent once: a recorded message id means an earlier attempt got through.
  if (ctx.vendorId) return { vendorId: ctx.vendorId };
  if (!ctx.integration.data.email) throw new PermanentFailure('No email address is configured');
  const [to, ...cc] = await addressees(ctx);
  // Every address is a member's who chose otherwise: delivered, with nothing to send.
  if (!to) return { vendorId: `members:${ctx.deliveryId}` };
  const mail = issueMail(ctx, await ownerLang(ctx.project));
  const id = await sendMail({ to, cc, ...mail });
  return { vendorId: id ?? `sent:${ctx.deliveryId}` };
};
