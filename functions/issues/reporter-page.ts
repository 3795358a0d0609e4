/**
 * The reporter's status page `GET /r/{token}` and its small companions (the 404 page, the unsubscribe
 * confirmation), server-rendered (issue 24; docs/reporter.md): a few KB of HTML in the project's widget
 * language and colour, no dashboard bundle, one inline script of its own for the reply box. The script
 * and the style are allowed by their hashes only (`csp`), so nothing else can run or style the page, and
 * every stored value is escaped. Accessible: banner and main landmarks, one h1, labelled reply box with a
 * live status, visible focus, and text on the client's colour in black or white, whichever contrasts more.
 */
import { createHash } from 'node:crypto';
import { readableOn } from '#contracts/contrast';
import { reportLimits } from '#contracts/intake';
import type { ReporterStatusAnswer } from '#contracts/reporter';
import { widgetLanguages } from '#contracts/schemas';
import { escapeHtml as e } from '#runtime/mail';
import { fill, type ReporterLang, type ReporterTexts, reporterTexts } from './reporter-texts';

/** What the page shows of the project: its name and look. */
export interface PageLook {
  lang: ReporterLang;
  projectName: string;
  color: string;
}

/** The reply box's behaviour: post the text as JSON, show the answer, add the reply to the list. */
const script = `(()=>{const f=document.getElementById("reply");if(!f)return;const d=f.dataset,t=document.getElementById("body"),m=document.getElementById("msg"),b=f.querySelector("button");
f.addEventListener("submit",async(ev)=>{ev.preventDefault();const v=t.value.trim();
if(!v||v.length>Number(d.max)){m.textContent=d.invalid;t.setAttribute("aria-invalid","true");t.focus();return}
b.disabled=true;m.textContent=d.sending;
try{const r=await fetch(d.url,{method:"POST",headers:{"content-type":"application/json"},body:JSON.stringify({body:v})});
const j=await r.json().catch(()=>null);
if(r.ok&&j&&j.msg){const li=document.createElement("li"),w=document.createElement("p"),x=document.createElement("p");w.className="who";w.textContent=d.you;x.className="text";x.textContent=j.msg.comment.body;li.append(w,x);document.getElementById("list").append(li);const n=document.getElementById("none");if(n)n.remove();t.value="";t.removeAttribute("aria-invalid");m.textContent=d.sent}
else{m.textContent=r.status===429?d.rate:r.status===400?d.invalid:d.failed;if(r.status===400)t.setAttribute("aria-invalid","true")}}
catch{m.textContent=d.failed}b.disabled=false;t.focus()})})();`;

const hash = (s: string) => `'sha256-${createHash('sha256').update(s, 'utf8').digest('base64')}'`;
const scriptHash = hash(script);

function style(color: string): string {
  const fg = readableOn(color);
  return `*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#1f2937;background:#fff;overflow-wrap:anywhere}
header{background:${color};color:${fg};padding:12px 16px}header p{margin:0;font-weight:700;max-width:720px;margin:auto}
main{max-width:720px;margin:auto;padding:16px}h1{font-size:1.5rem;margin:8px 0}h2{font-size:1.15rem;margin:24px 0 8px}
.meta{color:#4b5563;margin:0}.badge{display:inline-block;border:1px solid #374151;border-radius:999px;padding:0 10px;font-weight:600}
.text{white-space:pre-wrap;overflow-wrap:anywhere;margin:0}ol{list-style:none;padding:0;margin:0}li{border-top:1px solid #e5e7eb;padding:8px 0}
.who{margin:0 0 4px;font-weight:600}.who time{font-weight:400;color:#4b5563}
label{display:block}textarea{width:100%;min-height:120px;font:inherit;padding:8px;border:1px solid #6b7280;border-radius:6px}
textarea[aria-invalid=true]{border-color:#b91c1c}.hint{color:#4b5563;font-size:.9rem;margin:4px 0}
button{font:inherit;font-weight:600;background:${color};color:${fg};border:1px solid #1f2937;border-radius:6px;padding:8px 16px;cursor:pointer}
button:disabled{opacity:.7}:focus-visible{outline:3px solid #1f2937;outline-offset:2px}#msg{min-height:1.5em;font-weight:600}`;
}

/** The page's Content-Security-Policy: its own style and script by hash, calls to its own origin only. */
export function pageCsp(styleText: string, withScript: boolean): string {
  return [
    "default-src 'none'",
    `style-src ${hash(styleText)}`,
    withScript ? `script-src ${scriptHash}` : "script-src 'none'",
    "connect-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export interface RenderedPage {
  html: string;
  csp: string;
}

function layout(look: PageLook, title: string, body: string, withScript = false): RenderedPage {
  const css = style(look.color);
  const html = `<!doctype html><html lang="${look.lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex, nofollow"><meta name="referrer" content="no-referrer"><title>${e(title)}</title><style>${css}</style></head><body><header><p>${e(look.projectName)}</p></header><main id="main">${body}</main>${withScript ? `<script>${script}</script>` : ''}</body></html>`;
  return { html, csp: pageCsp(css, withScript) };
}

const dateOf = (iso: string, lang: ReporterLang, style: 'long' | 'medium') => {
  const ms = Date.parse(iso);
  return Number.isNaN(ms)
    ? ''
    : new Intl.DateTimeFormat(lang, { dateStyle: style, timeZone: 'UTC' }).format(new Date(ms));
};

/** The status page of one issue. */
export function statusPage(look: PageLook, status: ReporterStatusAnswer, token: string): RenderedPage {
  const t = reporterTexts[look.lang];
  const v = { n: status.number, project: look.projectName, max: reportLimits.descriptionMax };
  const comments = status.comments
    .map(
      (c) =>
        `<li><p class="who">${e(c.mine ? t.you : c.author)} · <time datetime="${e(c.createdAt)}">${e(dateOf(c.createdAt, look.lang, 'medium'))}</time></p><p class="text">${e(c.body)}</p></li>`,
    )
    .join('');
  const data = {
    url: `/api/reporter/${token}/reply`,
    max: String(reportLimits.descriptionMax),
    you: t.you,
    sending: t.sending,
    sent: t.sent,
    invalid: fill(t.replyInvalid, v),
    rate: t.rateLimited,
    failed: t.failed,
  };
  const attrs = Object.entries(data)
    .map(([k, val]) => `data-${k}="${e(val)}"`)
    .join(' ');
  const body = `<h1>${e(fill(t.pageTitle, v))}</h1>
<p class="meta">${e(t.status)}: <strong class="badge" data-status="${status.status}">${e(t[status.status])}</strong></p>
<p class="meta">${e(fill(t.submitted, { date: dateOf(status.submittedAt, look.lang, 'long') }))}</p>
<section aria-labelledby="h-desc"><h2 id="h-desc">${e(t.description)}</h2><p class="text">${e(status.description)}</p></section>
<section aria-labelledby="h-replies"><h2 id="h-replies">${e(t.conversation)}</h2><ol id="list">${comments}</ol>${status.comments.length === 0 ? `<p id="none" class="meta">${e(t.noComments)}</p>` : ''}</section>
<section aria-labelledby="h-reply"><form id="reply" ${attrs} novalidate><h2 id="h-reply"><label for="body">${e(t.replyLabel)}</label></h2><textarea id="body" name="body" maxlength="${reportLimits.descriptionMax}" required aria-describedby="hint msg"></textarea><p id="hint" class="hint">${e(fill(t.replyHint, v))}</p><p id="msg" role="status" aria-live="polite"></p><button type="submit">${e(t.send)}</button></form></section>
${status.mails ? '' : `<p class="meta">${e(t.mailsOff)}</p>`}`;
  return layout(look, `${fill(t.pageTitle, v)} · ${look.projectName}`, body, true);
}

/** The answer to an unknown token (or a page that is off): the same page whatever the reason. */
export function notFoundPage(lang: ReporterLang): RenderedPage {
  const t = reporterTexts[lang];
  return layout(
    { lang, projectName: '', color: '#4F4EAE' },
    t.notFoundTitle,
    `<h1>${e(t.notFoundTitle)}</h1><p>${e(t.notFoundText)}</p>`,
  );
}

/** GET …/unsubscribe: asks (a mail scanner's GET must not unsubscribe); the button POSTs to the same address. */
export function unsubscribeAskPage(look: PageLook, n: number): RenderedPage {
  const t: ReporterTexts = reporterTexts[look.lang];
  return layout(
    look,
    fill(t.unsubscribeTitle, { n }),
    `<h1>${e(fill(t.unsubscribeTitle, { n }))}</h1><p>${e(t.unsubscribeText)}</p><form method="post"><button type="submit">${e(t.unsubscribeButton)}</button></form>`,
  );
}

export function unsubscribedPage(look: PageLook, n: number): RenderedPage {
  const t = reporterTexts[look.lang];
  return layout(
    look,
    t.unsubscribedTitle,
    `<h1>${e(t.unsubscribedTitle)}</h1><p>${e(fill(t.unsubscribedText, { n }))}</p>`,
  );
}

/** The first of the six languages an `Accept-Language` header names (the 404 page knows no project). */
export function langOfHeader(header: string | undefined): ReporterLang {
  for (const part of (header ?? '').split(',')) {
    const code = part.trim().slice(0, 2).toLowerCase();
    if ((widgetLanguages as readonly string[]).includes(code)) return code as ReporterLang;
  }
  return 'en';
}
