/**
 * What the popup and the in-page reporter ask the background worker (runtime messages, JSON in Chromium:
 * blobs travel as base64 chunks). Every answer is `Answer<T>`: a catalogue-style code on failure, which
 * the popup and the widget's panel turn into their own texts.
 */
import type { V1IssueCreated } from '#contracts/api-v1';
import type { WidgetConfig } from '#contracts/widget-config';
import type { ProjectChoice } from './server';
import type { V1IssueCreateInput } from './to-v1';

/** The code of a connection that has ended (401 invalid_token): the extension asks to connect again. */
export const CONNECTION_ENDED = 'CONNECTION_ENDED';

export type Answer<T> = { ok: true; value: T } | { ok: false; code: string };

export interface Status {
  server: string;
  /** Whether the host permission for the server's origin is granted (the calls need it). */
  serverGranted: boolean;
  connection: 'connected' | 'none' | 'ended';
  user: { name: string; email: string } | null;
  /** The tab the popup is about: its origin and host, null where the extension cannot report (chrome:// …). */
  site: { origin: string; host: string } | null;
  /** Whether console errors are captured from page load on this site (registered MAIN-world script). */
  logsFromLoad: boolean;
}

export interface PresignedPost {
  key: string;
  url: string;
  fields: Record<string, string>;
}

export type PopupRequest =
  | { type: 'status'; tabId: number | null }
  | { type: 'set-server'; server: string }
  | { type: 'connect' }
  | { type: 'disconnect' }
  | { type: 'projects'; tabId: number | null }
  | { type: 'report'; tabId: number; projectId: string }
  | { type: 'set-logs'; tabId: number; on: boolean };

export type ContentRequest =
  | { type: 'capture' }
  | { type: 'presign'; projectId: string; body: { kind: string; type: string; size: number } }
  | { type: 'chunk'; upload: string; data: string }
  | { type: 'post-form'; upload: string; post: PresignedPost; contentType: string }
  | { type: 'create'; projectId: string; body: V1IssueCreateInput; idempotencyKey: string };

export interface ProjectsAnswer {
  projects: ProjectChoice[];
  selected: string | null;
}

/** Sent to the tab once the reporter is injected: open the panel for this project. */
export interface OpenMessage {
  type: 'snag-open';
  projectId: string;
  config: WidgetConfig;
}

export type { V1IssueCreated };
