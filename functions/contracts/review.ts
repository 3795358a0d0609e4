/**
 * The answers of the issue review calls (SPEC.md sections 3 and 7, issue 8), typed once: the API builds
 * them (functions/issues/review.ts) and the dashboard reads them (web/src/issues/).
 */

import type { DeviceData, LogEntry, ReplayStop, ScreenshotType, Step } from './intake';
import type { IntegrationName } from './integration-names';
import type { MergeState } from './similar';
import type { FiledVia, TriageFields } from './triage';

/** One row of GET client/website/{id}/request (with its triage fields since issue 23). */
export interface IssueRow extends TriageFields {
  number: number;
  title: string;
  /** The start of the description, plain text. */
  preview: string;
  date_created: { date: string };
  total_files: number;
  total_screenshots: number;
  /** Issue 37: 1 + the duplicates merged into it (absent on rows of answers before it). */
  reports?: number;
  /** Issue 37: the primary this issue is a duplicate of. */
  duplicateOf?: number;
}

/** GET client/website/{id}/request?page&search&resolved. */
export interface IssueListAnswer {
  requests: IssueRow[];
  total_requests: number;
  page: number;
  /** Present when a search looked at only the newest `searchWindow` issues of a longer list. */
  searchWindow?: number;
  /**
   * Present when a combination of filters (or a filter with the `priority` or `updated` sort, or with a
   * search) looked at only the first `filterWindow` issues of its smallest facet (issue 23, 4.13).
   */
  filterWindow?: number;
}

export interface IssueFileAnswer {
  /** The stored object's name: what the download calls take. */
  name: string;
  /** The visitor's file name, shown and used for downloads. */
  original_name: string;
  size: number;
  type: string;
}

export interface IssueScreenshotAnswer {
  name: string;
  type: ScreenshotType;
  /** The stored name of the page snapshot taken with this screenshot; empty without one. */
  html: string;
  size: number;
}

export type IntegrationStatusFields = { [K in `${IntegrationName}_status`]: number } & {
  /** The reason of a permanent failure (status 3), when one was stored (issue 11). */
  [K in `${IntegrationName}_reason`]?: string;
} & {
  /**
   * The web address of the item the delivery created (the tracker issue or task, the Slack message),
   * when one was stored: always http(s). Email and webhooks have none, nor deliveries made before it was kept.
   */
  [K in `${IntegrationName}_url`]?: string;
};

/** GET client/website/{id}/request/{ticketId}. */
export type IssueAnswer = IntegrationStatusFields &
  TriageFields &
  /** Issue 37: whether it is a duplicate, and a primary's reports, duplicates and what they affect. */
  MergeState & {
    number: number;
    /** The neighbours by number within the issue's own list; null at either end. */
    prev_number: number | null;
    next_number: number | null;
    date_created: { date: string };
    /** 1 when the issue is resolved (closed). */
    deleted: 0 | 1;
    total_files: number;
    total_screenshots: number;
    files: IssueFileAnswer[];
    screenshots: IssueScreenshotAnswer[];
    data: Partial<DeviceData> & {
      title: string;
      msg: string;
      username?: string;
      href?: string;
      customFields?: { name: string; value: string }[];
    };
    logs: LogEntry[];
    /** The visitor's last actions, oldest first; empty for reports made before steps existed. */
    steps: Step[];
    /** The session replay, when the report carried one. */
    replay: IssueReplayAnswer | null;
    /**
     * When the visitor sent the report, on their own clock (epoch ms): the steps' and logs' times are on
     * it too. Null for reports of widgets older than it (the creation date stands in).
     */
    sent_at: number | null;
    /**
     * How the issue was filed when not through the widget (issue 34): the browser extension or an API token,
     * shown beside the reporter. Null for the widget's reports (and every issue filed before).
     */
    filedVia: FiledVia | null;
  };

/**
 * An issue's session replay. Its events (a gzip of rrweb's JSON array) are read with
 * GET client/replay/{siteId}/{name} (signed in, project access) or, from a tracker's signed link,
 * GET replay/{token}; both answer the gzip bytes themselves (`application/gzip`), same-origin.
 */
export interface IssueReplayAnswer {
  /** The stored object's name. */
  name: string;
  size: number;
  /** What it covers, epoch ms. */
  start: number;
  end: number;
  stopped?: ReplayStop;
}

/** PATCH client/website/{id}/request/{ticketId}. */
export interface IssueStateAnswer {
  number: number;
  deleted: 0 | 1;
}

/**
 * Where the visitor was when a page snapshot was taken (the widget's `<meta name="snag-snapshot">`), in
 * CSS pixels: the scroll position and the viewport's size.
 */
export interface SnapshotView {
  scrollX: number;
  scrollY: number;
  width: number;
  height: number;
  devicePixelRatio: number;
}

/** GET client/snapshot/{siteId}/{name}: the page snapshot to show in a sandboxed frame (issue 19). */
export interface SnapshotViewAnswer {
  /** A short-lived address of the viewable document on the uploads bucket's origin. */
  url: string;
  /** The fragment that opens it at the visitor's scroll position (add it as `#anchor`). */
  anchor: string;
  /** Null for a snapshot without the widget's meta (shown from the top at the frame's size). */
  view: SnapshotView | null;
}
