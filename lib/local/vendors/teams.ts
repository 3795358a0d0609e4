/**
 * Microsoft Teams' Workflows webhook, stood in for on the local stack (README "Vendor fakes"), from
 * ../shared/api-specs/teams/ and its README bullets: `GET /` is the setup page (what the Workflows app does
 * in Teams: it shows the URL to paste) and the channel, with every card drawn, screenshot included;
 * `POST /workflows/{flow}/triggers/manual/paths/invoke?api-version=1&sig=…` takes a message.
 *
 * It checks what Teams would: the `sig` it issued (401 otherwise, one containing "invalid" too, to try the
 * error), a JSON body, the envelope of adaptive-card-message.example.json (`type: message`, one attachment
 * of `application/vnd.microsoft.card.adaptive`) and the card against the Adaptive Card schema 1.5.0 (400
 * with the schema's complaints). It answers 202 with an empty body, as Workflows do.
 */
import { escapeHtml as esc } from '#runtime/mail';
import { adaptiveCardErrors } from './adaptive-card';
import { type Fake, type FakeRequest, startFake } from './fake';

/** The flow's signature the fake issues: fixed, so a saved URL still works after `npm start` restarts. */
export const TEAMS_FAKE_SIG = 'snag-local-workflow-signature';
const FLOW_PATH = /^\/workflows\/([\w-]{1,64})\/triggers\/manual\/paths\/invoke$/;

export interface TeamsFake extends Fake {
  /** The URL to paste on the Microsoft Teams screen. */
  webhookUrl: string;
  /** The cards accepted, in arrival order. */
  cards: Record<string, unknown>[];
}

type Inline = { text?: string; weight?: string; selectAction?: { url?: string } };
type Element = { type?: string; inlines?: (Inline | string)[]; url?: string };

/** A card drawn roughly as Teams would: its text runs and its images (the screenshot from its link). */
function drawn(card: Record<string, unknown>): string {
  const body = (card.body as Element[] | undefined) ?? [];
  const parts = body.map((el) => {
    if (el.type === 'Image')
      return `<img src="${esc(el.url ?? '')}" alt="Screenshot" style="max-width:100%">`;
    const runs = (el.inlines ?? []).map((r) => {
      const run = typeof r === 'string' ? { text: r } : r;
      const text = esc(run.text ?? '');
      const shown = run.weight === 'Bolder' ? `<b>${text}</b>` : text;
      return run.selectAction?.url ? `<a href="${esc(run.selectAction.url)}">${shown}</a>` : shown;
    });
    return `<p style="white-space:pre-wrap">${runs.join('')}</p>`;
  });
  const actions = ((card.actions as { title?: string; url?: string }[] | undefined) ?? []).map(
    (a) => `<a class="b" href="${esc(a.url ?? '')}">${esc(a.title ?? '')}</a>`,
  );
  return `<article>${parts.join('')}<div>${actions.join(' ')}</div></article>`;
}

function page(fake: { webhookUrl: string; cards: Record<string, unknown>[] }): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="5">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>Microsoft Teams (local fake)</title>
<style>body{font-family:system-ui,sans-serif;max-width:50rem;margin:2rem auto;padding:0 1rem;color:#222}
code{background:#f3f3f3;padding:.2rem;overflow-wrap:anywhere}article{border:1px solid #ccc;border-radius:6px;padding:.5rem 1rem;margin:1rem 0}
.b{display:inline-block;border:1px solid #5b5fc7;border-radius:4px;padding:.2rem .6rem;color:#5b5fc7;text-decoration:none}</style></head>
<body><h1>Microsoft Teams: a local stand-in</h1>
<p>In Teams, the Workflows app's template "Post to a channel when a webhook request is received" shows a URL.
This stand-in's is:</p><p><code>${esc(fake.webhookUrl)}</code></p>
<p>Paste it on the Microsoft Teams screen of a project's integrations. Cards posted to it appear below
(this page refreshes every 5 seconds).</p><h2>Channel</h2>
${fake.cards.length ? [...fake.cards].reverse().map(drawn).join('\n') : '<p>No cards yet.</p>'}</body></html>`;
}

function accept(req: FakeRequest, cards: Record<string, unknown>[]) {
  const sig = req.url.searchParams.get('sig') ?? '';
  if (sig !== TEAMS_FAKE_SIG || sig.includes('invalid'))
    return { status: 401, json: { error: { code: 'DirectApiAuthorizationRequired', message: 'bad sig' } } };
  if (!(req.headers['content-type'] ?? '').includes('application/json'))
    return { status: 400, json: { error: { code: 'InvalidContentType', message: 'JSON only' } } };
  const body = req.body as { type?: unknown; attachments?: unknown } | undefined;
  const attachments = Array.isArray(body?.attachments) ? (body.attachments as Record<string, unknown>[]) : [];
  const [first] = attachments;
  if (body?.type !== 'message' || attachments.length !== 1 || !first)
    return {
      status: 400,
      json: { error: { code: 'InvalidMessage', message: 'type message, one attachment' } },
    };
  if (first.contentType !== 'application/vnd.microsoft.card.adaptive')
    return { status: 400, json: { error: { code: 'InvalidAttachment', message: 'adaptive card only' } } };
  const errors = adaptiveCardErrors(first.content);
  if (errors.length) return { status: 400, json: { error: { code: 'InvalidCard', errors } } };
  cards.push(first.content as Record<string, unknown>);
  return { status: 202, text: '' };
}

export async function startTeamsFake(port = 0): Promise<TeamsFake> {
  const cards: Record<string, unknown>[] = [];
  const state = { webhookUrl: '', cards };
  const fake = await startFake(
    (req) => {
      if (req.method === 'GET' && req.path === '/') return { html: page(state) };
      if (req.method === 'POST' && FLOW_PATH.test(req.path)) return accept(req, cards);
      return { status: 404, json: { error: { code: 'NotFound' } } };
    },
    'Microsoft Teams',
    port,
  );
  state.webhookUrl = `${fake.url}/workflows/snag-local/triggers/manual/paths/invoke?api-version=1&sig=${TEAMS_FAKE_SIG}`;
  return {
    ...fake,
    webhookUrl: state.webhookUrl,
    cards,
    reset: () => {
      fake.reset();
      cards.length = 0;
    },
  };
}
