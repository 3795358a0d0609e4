/**
 * The API reference's texts (Docs → API reference), English and German, the `apiReference` part of the
 * catalogue. They load with that screen, not with the dashboard's first load, whose budget (DESIGN.md
 * section 7) carries the language catalogues: `web/src/docs/texts.ts` adds them to both languages, and the
 * screen imports it.
 */
import type { Lang } from './language';

const en = {
  title: 'Snag REST API',
  intro:
    "Read and work on your team's projects, issues and comments from your own scripts and tools. Open an operation below to see its parameters and answers, or try it with your token.",
  baseUrl: 'Base URL',
  auth: 'Authentication',
  authText:
    'Send an API token with every call. Owners and admins create tokens under <tokens>Team → API tokens</tokens>.',
  rateLimit: 'Rate limit',
  rateText:
    '300 calls a minute per token. Answers carry <code>RateLimit-Limit</code>, <code>RateLimit-Remaining</code> and <code>RateLimit-Reset</code>; past the limit the answer is 429 with <code>Retry-After</code>.',
  document: 'OpenAPI document',
  documentText: 'The machine-readable contract (OpenAPI 3.1) this page shows:',
  mcp: 'MCP server',
  mcpText:
    'Coding assistants use the API through <code>npx snag-mcp</code>, set up with <code>SNAG_URL</code> and <code>SNAG_TOKEN</code>.',
  operations: 'Operations',
  rendererNote: 'Shown by Swagger UI, in English.',
  failed: 'The reference could not be loaded. Reload the page, or read the document itself.',
};

type Widen<T> = { [K in keyof T]: T[K] extends string ? string : Widen<T[K]> };
export type ApiReferenceTexts = Widen<typeof en>;

const de: ApiReferenceTexts = {
  title: 'Snag REST API',
  intro:
    'Lesen und bearbeiten Sie die Projekte, Meldungen und Kommentare Ihres Teams mit eigenen Skripten und Werkzeugen. Öffnen Sie unten einen Aufruf, um seine Parameter und Antworten zu sehen, oder probieren Sie ihn mit Ihrem Token aus.',
  baseUrl: 'Basis-URL',
  auth: 'Authentifizierung',
  authText:
    'Senden Sie bei jedem Aufruf ein API-Token mit. Inhaber und Admins erstellen Tokens unter <tokens>Team → API-Tokens</tokens>.',
  rateLimit: 'Aufruflimit',
  rateText:
    '300 Aufrufe pro Minute und Token. Jede Antwort enthält <code>RateLimit-Limit</code>, <code>RateLimit-Remaining</code> und <code>RateLimit-Reset</code>; darüber hinaus antwortet die API mit 429 und <code>Retry-After</code>.',
  document: 'OpenAPI-Dokument',
  documentText: 'Der maschinenlesbare Vertrag (OpenAPI 3.1), den diese Seite zeigt:',
  mcp: 'MCP-Server',
  mcpText:
    'Coding-Assistenten nutzen die API über <code>npx snag-mcp</code>, eingerichtet mit <code>SNAG_URL</code> und <code>SNAG_TOKEN</code>.',
  operations: 'Aufrufe',
  rendererNote: 'Dargestellt von Swagger UI, nur auf Englisch.',
  failed:
    'Die Referenz konnte nicht geladen werden. Laden Sie die Seite neu oder lesen Sie das Dokument selbst.',
};

export const apiReferenceTexts: Record<Lang, ApiReferenceTexts> = { en, de };
