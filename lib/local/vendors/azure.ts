/**
 * Azure DevOps Boards' local fake (../shared/api-specs/azure-devops and the README's "Azure DevOps"
 * facts): any organisation under the fake's address (`<fake>/fabrikam` is the one the banner names), a PAT
 * as HTTP Basic on every API call (any token but one containing "invalid" or a revoked one; 401 as Azure
 * answers), `api-version=7.1` required (`7.1-preview.4` for comments), lists wrapped as `{count, value}`.
 * Two projects, each with the types Bug (Repro Steps, as the Agile process has it), Task and User Story
 * (Description) and their states by category. Work items are created and updated with JSON Patch bodies
 * (`application/json-patch+json`, checked: known fields only, a Title, relations to known attachments);
 * attachments take raw bytes (`application/octet-stream`).
 *
 * Service hooks: `POST _apis/hooks/subscriptions` (webHooks consumer, body checked) stores a subscription;
 * every state change and comment, the API's included, fires the matching subscriptions with the docs
 * samples' payload shape, the subscription's `httpHeaders` and basic auth. `actAsHuman` (or
 * `POST /_control/workitems/:id/{close|reopen|comment}` for a person trying it locally) changes a work
 * item as "Jamal Hartnett" would. The work item's web page (`_links.html.href`) shows it.
 */
import { randomUUID } from 'node:crypto';
import {
  backgroundWork,
  basicAuth,
  type Fake,
  type FakeReply,
  type FakeRequest,
  itemPage,
  postHook,
  startFake,
} from './fake';

export const azureOrg = 'fabrikam';
export const azureProjects = [
  { id: '6ce954b1-ce1f-45d1-b94d-e6bf2464ba2c', name: 'Fabrikam-Fiber-Git' },
  { id: 'eb6e4656-77fc-42a1-9181-4c6d8e9da5d1', name: 'Website' },
];
const REPRO = 'Microsoft.VSTS.TCM.ReproSteps';
const common = [
  'System.Title',
  'System.State',
  'System.Description',
  'System.History',
  'System.AssignedTo',
  'System.Tags',
];
export const azureTypes: Record<string, { fields: string[]; states: { name: string; category: string }[] }> =
  {
    Bug: {
      fields: [...common, REPRO, 'Microsoft.VSTS.Common.Severity'],
      states: [
        { name: 'New', category: 'Proposed' },
        { name: 'Active', category: 'InProgress' },
        { name: 'Resolved', category: 'Resolved' },
        { name: 'Closed', category: 'Completed' },
      ],
    },
    Task: {
      fields: common,
      states: [
        { name: 'To Do', category: 'Proposed' },
        { name: 'Doing', category: 'InProgress' },
        { name: 'Done', category: 'Completed' },
      ],
    },
    'User Story': {
      fields: common,
      states: [
        { name: 'New', category: 'Proposed' },
        { name: 'Active', category: 'InProgress' },
        { name: 'Closed', category: 'Completed' },
      ],
    },
  };

/** The PAT's user (what the API acts as) and the person a test plays. */
export const azureApiUser = { id: 'd291b0c4-a05c-4ea6-8df1-4b41d5f39eff', displayName: 'Snag Bot' };
export const azureHuman = { id: '19d9411e-9a34-45bb-b985-d24d9d87c0c9', displayName: 'Jamal Hartnett' };

export interface AzureWorkItem {
  id: number;
  rev: number;
  projectId: string;
  type: string;
  fields: Record<string, unknown>;
  relations: { rel: string; url: string; attributes?: Record<string, unknown> }[];
  comments: { id: number; text: string; by: string }[];
  /** What Azure would act on in the description's HTML: links and images, @mentions, #id links, tags. */
  acted: HtmlActions;
}

export interface AzureSubscription {
  id: string;
  eventType: string;
  projectId: string;
  workItemType: string;
  changedFields: string;
  url: string;
  headers: Record<string, string>;
  basic?: { user: string; pass: string };
}

export interface AzureDelivery {
  subscriptionId: string;
  url: string;
  headers: Record<string, string>;
  body: string;
  status: number;
}

export interface HtmlActions {
  /** Every href and src in the HTML. */
  links: string[];
  /** `@name` and `#123` as Azure would link them (a letter or digit right after the sign). */
  mentions: string[];
  /** The tag names used. */
  tags: string[];
}

/** What an HTML rich-text field would do in Azure: its links, mentions and work item links, its tags. */
export function htmlActions(html: string): HtmlActions {
  // Attributes inside real tags only: escaped text (`&lt;a href=…`) is text to a browser.
  const links = [...html.matchAll(/<[a-z][^>]*>/gi)].flatMap((tag) =>
    [...tag[0].matchAll(/\s(?:href|src)\s*=\s*("([^"]*)"|'([^']*)'|([^\s>]+))/gi)].map(
      (m) => m[2] ?? m[3] ?? m[4] ?? '',
    ),
  );
  const text = html.replace(/<[^>]*>/g, ' ');
  const mentions = [...text.matchAll(/(?:^|[^\w&])([@#][\p{L}\p{N}_]+)/gu)].map((m) => m[1] ?? '');
  const tags = [
    ...new Set([...html.matchAll(/<\s*([a-z][a-z0-9-]*)/gi)].map((m) => (m[1] ?? '').toLowerCase())),
  ];
  return { links, mentions, tags };
}

export interface AzureFake extends Fake {
  workItems: AzureWorkItem[];
  attachments: { id: string; name: string; size: number; url: string }[];
  subscriptions: AzureSubscription[];
  deliveries: AzureDelivery[];
  /** The organisation URL a client enters: `<fake>/fabrikam`. */
  orgUrl: string;
  actAsHuman(
    id: number,
    action:
      | { kind: 'close' | 'reopen' }
      | { kind: 'state'; state: string }
      | { kind: 'comment'; text: string },
  ): Promise<AzureDelivery[]>;
  /** Sends a recorded delivery again, byte for byte. */
  resend(delivery: AzureDelivery): Promise<number>;
  settled(): Promise<void>;
  revoke(token: string): void;
}

const unauthorized: FakeReply = { status: 401, text: '' };
const error = (status: number, message: string, typeKey = 'VssServiceException'): FakeReply => ({
  status,
  json: {
    $id: '1',
    innerException: null,
    message,
    typeName: `Microsoft.VisualStudio.Services.${typeKey}`,
    typeKey,
    errorCode: 0,
  },
});
const wrapped = (value: unknown[]) => ({ json: { count: value.length, value } });

export async function startAzureFake(port = 0): Promise<AzureFake> {
  const workItems: AzureWorkItem[] = [];
  const attachments: AzureFake['attachments'] = [];
  const subscriptions: AzureSubscription[] = [];
  const deliveries: AzureDelivery[] = [];
  const revoked = new Set<string>();
  const background = backgroundWork();
  let base = '';
  let commentIds = 1000;

  const webUrl = (w: AzureWorkItem) => `${base}/${azureOrg}/${w.projectId}/_workitems/edit/${w.id}`;
  const itemJson = (w: AzureWorkItem) => ({
    id: w.id,
    rev: w.rev,
    fields: {
      ...w.fields,
      'System.Id': w.id,
      'System.WorkItemType': w.type,
      'System.TeamProject': projectName(w.projectId),
    },
    relations: w.relations,
    _links: { html: { href: webUrl(w) } },
    url: `${base}/${azureOrg}/_apis/wit/workItems/${w.id}`,
  });
  const projectName = (id: string) => azureProjects.find((p) => p.id === id)?.name ?? id;

  async function send(d: AzureDelivery): Promise<AzureDelivery> {
    const out = { ...d, status: await postHook(d.url, d.headers, d.body) };
    deliveries.push(out);
    return out;
  }
  /** Fires the subscriptions for an event on a work item, as Azure's notification job does (after the API answered). */
  function fire(eventType: string, w: AzureWorkItem, resource: unknown, changed: string[]) {
    const wanted = subscriptions.filter(
      (s) =>
        s.eventType === eventType &&
        s.projectId === w.projectId &&
        (!s.workItemType || s.workItemType === w.type) &&
        (!s.changedFields || changed.includes(s.changedFields)),
    );
    const sent = Promise.all(
      wanted.map((s) => {
        const body = JSON.stringify({
          subscriptionId: s.id,
          notificationId: deliveries.length + 1,
          id: randomUUID(),
          eventType,
          publisherId: 'tfs',
          message: { text: `${w.type} #${w.id} changed`, html: '', markdown: '' },
          detailedMessage: { text: '', html: '', markdown: '' },
          resource,
          resourceVersion: '1.0',
          resourceContainers: {
            collection: { id: 'c12d0eb8-e382-443b-9f9c-c52cba5014c2', baseUrl: `${base}/${azureOrg}/` },
            account: { id: 'f844ec47-a9db-4511-8281-8b63f4eaf94e', baseUrl: `${base}/${azureOrg}/` },
            project: { id: w.projectId, baseUrl: `${base}/${azureOrg}/` },
          },
          createdDate: new Date().toISOString(),
        });
        const headers: Record<string, string> = {
          'content-type': 'application/json; charset=utf-8',
          ...s.headers,
        };
        if (s.basic)
          headers.authorization = `Basic ${Buffer.from(`${s.basic.user}:${s.basic.pass}`).toString('base64')}`;
        return send({ subscriptionId: s.id, url: s.url, headers, body, status: 0 });
      }),
    );
    return background.track(sent);
  }

  function setState(w: AzureWorkItem, state: string, by: typeof azureApiUser) {
    const old = w.fields['System.State'];
    if (old === state) return Promise.resolve([]);
    w.rev += 1;
    w.fields['System.State'] = state;
    w.fields['System.ChangedBy'] = by.displayName;
    return fire(
      'workitem.updated',
      w,
      {
        id: w.rev - 1,
        workItemId: w.id,
        rev: w.rev,
        revisedBy: { id: by.id, displayName: by.displayName },
        revisedDate: new Date().toISOString(),
        fields: {
          'System.Rev': { oldValue: w.rev - 1, newValue: w.rev },
          'System.State': { oldValue: old, newValue: state },
        },
        revision: {
          id: w.id,
          rev: w.rev,
          fields: { ...itemJson(w).fields, 'System.ChangedBy': by.displayName },
        },
      },
      ['System.State'],
    );
  }
  function comment(w: AzureWorkItem, text: string, by: typeof azureApiUser) {
    const c = { id: ++commentIds, text, by: by.displayName };
    w.comments.push(c);
    w.rev += 1;
    return {
      comment: c,
      fired: fire(
        'workitem.commented',
        w,
        {
          id: w.id,
          rev: w.rev,
          fields: { ...itemJson(w).fields, 'System.History': text, 'System.ChangedBy': by.displayName },
        },
        ['System.History'],
      ),
    };
  }
  function change(
    w: AzureWorkItem,
    by: typeof azureApiUser,
    action: Parameters<AzureFake['actAsHuman']>[1],
  ): Promise<AzureDelivery[]> {
    if (action.kind === 'comment') return comment(w, action.text, by).fired;
    const states = azureTypes[w.type]?.states ?? [];
    const state =
      action.kind === 'state'
        ? action.state
        : (states.find((s) => s.category === (action.kind === 'close' ? 'Completed' : 'Proposed'))?.name ??
          '');
    return setState(w, state, by);
  }

  /** A JSON Patch body as the work item routes take it, or the 400 Azure answers. */
  function patchOps(req: FakeRequest): { op: string; path: string; value?: unknown }[] | FakeReply {
    if (!(req.headers['content-type'] ?? '').startsWith('application/json-patch+json'))
      return error(
        415,
        'The request indicated a Content-Type of "application/json" for method type "POST". Valid content types for this method are: application/json-patch+json.',
      );
    let ops: unknown;
    try {
      ops = JSON.parse(req.raw.toString('utf8'));
    } catch {
      return error(400, 'You must pass a valid patch document in the body of the request.');
    }
    if (!Array.isArray(ops) || ops.some((o) => !o || typeof o.op !== 'string' || typeof o.path !== 'string'))
      return error(400, 'You must pass a valid patch document in the body of the request.');
    return ops as { op: string; path: string; value?: unknown }[];
  }

  /** Applies `add` ops to a work item (fields of its type, relations to known attachments), or the 400. */
  function apply(w: AzureWorkItem, ops: { op: string; path: string; value?: unknown }[]): FakeReply | null {
    const type = azureTypes[w.type];
    for (const op of ops) {
      if (op.op === 'test') continue;
      if (op.op !== 'add' && op.op !== 'replace')
        return error(400, `Operation ${op.op} is not supported here.`);
      const f = /^\/fields\/(.+)$/.exec(op.path);
      if (f?.[1]) {
        if (!type?.fields.includes(f[1]))
          return error(400, `TF51535: Cannot find field ${f[1]}.`, 'WorkItemFieldInvalidException');
        if (f[1] === 'System.State' && !type.states.some((s) => s.name === op.value))
          return error(
            400,
            `TF401320: Rule Error for field State. Error code: InvalidListValue.`,
            'RuleValidationException',
          );
        w.fields[f[1]] = op.value;
        continue;
      }
      if (op.path === '/relations/-') {
        const rel = op.value as
          | { rel?: unknown; url?: unknown; attributes?: Record<string, unknown> }
          | undefined;
        if (rel?.rel !== 'AttachedFile' && rel?.rel !== 'Hyperlink')
          return error(400, 'Unknown relation type.');
        if (typeof rel.url !== 'string') return error(400, 'A relation needs its url.');
        if (rel.rel === 'AttachedFile' && !attachments.some((a) => a.url === rel.url))
          return error(400, 'TF237124: Work Item is not ready to save: the attachment does not exist.');
        w.relations.push({
          rel: rel.rel,
          url: rel.url,
          ...(rel.attributes ? { attributes: rel.attributes } : {}),
        });
        continue;
      }
      return error(400, `The path ${op.path} is not valid.`);
    }
    return null;
  }

  const route = (req: FakeRequest): FakeReply => {
    const control = /^\/_control\/workitems\/(\d+)\/(close|reopen|comment)$/.exec(req.path);
    if (control && req.method === 'POST') {
      const w = workItems.find((i) => i.id === Number(control[1]));
      if (!w) return error(404, 'TF401232: Work item does not exist.');
      const kind = control[2] as 'close' | 'reopen' | 'comment';
      const text = String((req.body as { text?: unknown } | undefined)?.text ?? 'A comment on Azure DevOps');
      void change(w, azureHuman, kind === 'comment' ? { kind, text } : { kind });
      return { status: 202, json: { done: kind } };
    }
    const page = /^\/([^/]+)\/([^/]+)\/_workitems\/edit\/(\d+)$/.exec(req.path);
    if (page && req.method === 'GET') {
      const w = workItems.find((i) => i.id === Number(page[3]));
      if (!w) return error(404, 'TF401232: Work item does not exist.');
      return itemPage({
        vendor: 'Azure DevOps',
        place: `${page[1]}/${projectName(w.projectId)}`,
        title: String(w.fields['System.Title'] ?? ''),
        reference: `${w.type} ${w.id}`,
        facts: [`State: ${String(w.fields['System.State'])}`, `${w.relations.length} links and attachments`],
        body: String(w.fields[REPRO] ?? w.fields['System.Description'] ?? ''),
        comments: w.comments.map((c) => ({ author: c.by, body: c.text })),
      });
    }
    const m = /^\/([^/]+)(?:\/([^/]+))?\/_apis\/(.+)$/.exec(req.path);
    if (!m) return error(404, 'Not found');
    const credentials = basicAuth(req.headers);
    if (!credentials?.pass || credentials.pass.includes('invalid') || revoked.has(credentials.pass))
      return unauthorized;
    const [, , projectSeg, rest = ''] = m;
    const version = req.query['api-version'];
    const wantVersion = /\/comments$/.test(rest) ? '7.1-preview.4' : '7.1';
    if (version !== wantVersion)
      return error(
        400,
        `The requested REST API version of ${version ?? '(none)'} is not the one this fake checks (${wantVersion}).`,
        'VssVersionOutOfRangeException',
      );
    const project = projectSeg
      ? azureProjects.find(
          (p) => p.id === decodeURIComponent(projectSeg) || p.name === decodeURIComponent(projectSeg),
        )
      : undefined;
    if (projectSeg && !project)
      return error(
        404,
        `TF200016: The following project does not exist: ${projectSeg}.`,
        'ProjectDoesNotExistWithNameException',
      );

    if (!project && rest === 'projects' && req.method === 'GET') {
      const top = Number(req.query.$top ?? 100);
      const skip = Number(req.query.$skip ?? 0);
      return wrapped(
        azureProjects
          .slice(skip, skip + top)
          .map((p) => ({ ...p, state: 'wellFormed', url: `${base}/${azureOrg}/_apis/projects/${p.id}` })),
      );
    }
    // `DELETE _apis/hooks/subscriptions/{id}` answers 204 (the spec's Subscriptions_Delete example).
    const subscription = /^hooks\/subscriptions\/([^/]+)$/.exec(rest);
    if (!project && subscription && req.method === 'DELETE') {
      const at = subscriptions.findIndex((x) => x.id === decodeURIComponent(subscription[1] ?? ''));
      if (at < 0) return error(404, `Subscription ${subscription[1]} does not exist.`);
      subscriptions.splice(at, 1);
      return { status: 204, text: '' };
    }
    if (!project && rest === 'hooks/subscriptions' && req.method === 'POST') {
      const b = (req.body ?? {}) as Record<string, unknown>;
      const pub = (b.publisherInputs ?? {}) as Record<string, unknown>;
      const con = (b.consumerInputs ?? {}) as Record<string, unknown>;
      if (b.publisherId !== 'tfs' || b.consumerId !== 'webHooks' || b.consumerActionId !== 'httpRequest')
        return error(
          400,
          'publisherId tfs, consumerId webHooks and consumerActionId httpRequest are expected.',
        );
      if (b.eventType !== 'workitem.updated' && b.eventType !== 'workitem.commented')
        return error(400, `Event type ${String(b.eventType)} is not a work item event this fake serves.`);
      if (!azureProjects.some((p) => p.id === pub.projectId))
        return error(400, 'publisherInputs.projectId is not a project.');
      if (typeof con.url !== 'string' || !/^https?:\/\//.test(con.url))
        return error(400, 'consumerInputs.url is required.');
      const headers: Record<string, string> = {};
      for (const line of String(con.httpHeaders ?? '').split(/\r?\n/)) {
        const i = line.indexOf(':');
        if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
      }
      const sub: AzureSubscription = {
        id: randomUUID(),
        eventType: b.eventType,
        projectId: String(pub.projectId),
        workItemType: typeof pub.workItemType === 'string' ? pub.workItemType : '',
        changedFields: typeof pub.changedFields === 'string' ? pub.changedFields : '',
        url: con.url,
        headers,
        ...(typeof con.basicAuthPassword === 'string'
          ? { basic: { user: String(con.basicAuthUsername ?? ''), pass: con.basicAuthPassword } }
          : {}),
      };
      subscriptions.push(sub);
      return {
        json: {
          id: sub.id,
          url: `${base}/${azureOrg}/_apis/hooks/subscriptions/${sub.id}`,
          publisherId: 'tfs',
          eventType: sub.eventType,
          consumerId: 'webHooks',
          consumerActionId: 'httpRequest',
          status: 'enabled',
          publisherInputs: pub,
          consumerInputs: { url: con.url },
        },
      };
    }
    if (!project) return error(404, `No API at ${rest} in this fake.`);

    if (rest === 'wit/workitemtypes' && req.method === 'GET')
      return wrapped(
        Object.entries(azureTypes).map(([name, t]) => ({
          name,
          referenceName: `Microsoft.VSTS.WorkItemTypes.${name.replace(/\s/g, '')}`,
          isDisabled: false,
          fields: t.fields.map((referenceName) => ({ referenceName })),
        })),
      );
    const states = /^wit\/workitemtypes\/([^/]+)\/states$/.exec(rest);
    if (states && req.method === 'GET') {
      const t = azureTypes[decodeURIComponent(states[1] ?? '')];
      return t
        ? wrapped(t.states.map((s) => ({ ...s, color: '007acc' })))
        : error(404, 'TF201036: The work item type does not exist.');
    }
    if (rest === 'wit/attachments' && req.method === 'POST') {
      const name = req.query.fileName;
      if (!name) return error(400, 'fileName is required.');
      if (req.headers['content-type'] !== 'application/octet-stream')
        return error(400, 'Attachments take application/octet-stream.');
      const id = randomUUID();
      const url = `${base}/${azureOrg}/${project.id}/_apis/wit/attachments/${id}?fileName=${encodeURIComponent(name)}`;
      attachments.push({ id, name, size: req.raw.length, url });
      return { status: 201, json: { id, url } };
    }
    const create = /^wit\/workitems\/\$(.+)$/.exec(rest);
    if (create && req.method === 'POST') {
      const type = decodeURIComponent(create[1] ?? '');
      if (!azureTypes[type])
        return error(404, `TF201036: You cannot add a ${type} work item: the type does not exist.`);
      const ops = patchOps(req);
      if (!Array.isArray(ops)) return ops;
      const w: AzureWorkItem = {
        id: 100 + workItems.length + 1,
        rev: 1,
        projectId: project.id,
        type,
        fields: {
          'System.State': azureTypes[type]?.states[0]?.name ?? 'New',
          'System.CreatedBy': azureApiUser.displayName,
        },
        relations: [],
        comments: [],
        acted: { links: [], mentions: [], tags: [] },
      };
      const failed = apply(w, ops);
      if (failed) return failed;
      if (typeof w.fields['System.Title'] !== 'string' || !w.fields['System.Title'])
        return error(
          400,
          'TF401320: Rule Error for field Title. Error code: Required, InvalidEmpty.',
          'RuleValidationException',
        );
      w.acted = htmlActions(String(w.fields[REPRO] ?? w.fields['System.Description'] ?? ''));
      workItems.push(w);
      return { json: itemJson(w) };
    }
    const item = /^wit\/workitems\/(\d+)$/i.exec(rest);
    if (item) {
      const w = workItems.find((i) => i.id === Number(item[1]) && i.projectId === project.id);
      if (!w)
        return error(
          404,
          `TF401232: Work item ${item[1]} does not exist, or you do not have permissions to read it.`,
        );
      if (req.method === 'GET') return { json: itemJson(w) };
      if (req.method === 'PATCH') {
        const ops = patchOps(req);
        if (!Array.isArray(ops)) return ops;
        const wanted = ops.find((o) => o.path === '/fields/System.State')?.value;
        const copy = { ...w, fields: { ...w.fields }, relations: [...w.relations] };
        const failed = apply(
          copy,
          ops.filter((o) => o.path !== '/fields/System.State'),
        );
        if (failed) return failed;
        if (wanted !== undefined) {
          if (!azureTypes[w.type]?.states.some((s) => s.name === wanted))
            return error(
              400,
              'TF401320: Rule Error for field State. Error code: InvalidListValue.',
              'RuleValidationException',
            );
          void setState(w, String(wanted), azureApiUser);
        }
        return { json: itemJson(w) };
      }
    }
    const comments = /^wit\/workItems\/(\d+)\/comments$/i.exec(rest);
    if (comments && req.method === 'POST') {
      const w = workItems.find((i) => i.id === Number(comments[1]) && i.projectId === project.id);
      if (!w) return error(404, 'TF401232: Work item does not exist.');
      const text = (req.body as { text?: unknown } | undefined)?.text;
      if (typeof text !== 'string' || !text.trim()) return error(400, 'The comment text is required.');
      const { comment: c } = comment(w, text, azureApiUser);
      return { json: { workItemId: w.id, id: c.id, version: 1, text, createdBy: azureApiUser } };
    }
    return error(405, `${req.method} ${rest} is not served by this fake.`);
  };

  const fake = await startFake(route, 'Azure DevOps', port);
  base = fake.url;
  return {
    ...fake,
    workItems,
    attachments,
    subscriptions,
    deliveries,
    orgUrl: `${fake.url}/${azureOrg}`,
    actAsHuman: (id, action) => {
      const w = workItems.find((i) => i.id === id);
      if (!w) throw new Error(`no Azure DevOps work item ${id}`);
      return change(w, azureHuman, action);
    },
    resend: async (d) => (await send({ ...d, status: 0 })).status,
    settled: background.settled,
    revoke: (token) => revoked.add(token),
    reset: () => {
      fake.reset();
      workItems.length = 0;
      attachments.length = 0;
      subscriptions.length = 0;
      deliveries.length = 0;
      revoked.clear();
    },
  };
}
