/**
 * What the loader receives, embedded in the script `GET /api/website/{id}/code` serves: the project's
 * appearance and rules after the plan has been applied (a Free project never gets video or upload and
 * always shows branding, whatever its stored settings say).
 */
import type { WidgetTextSet, widgetLanguages, widgetPositions } from './schemas';

export interface WidgetConfig {
  /** Project id. */
  id: string;
  /** Normalised project host (contracts/domains.ts decides the match in the browser). */
  host: string;
  wildcard: boolean;
  /** Test mode: only when the page address carries `snag=1`. */
  testMode: boolean;
  hideOnMobile: boolean;
  language: (typeof widgetLanguages)[number];
  color: string;
  scheme: 'white' | 'black';
  text: string;
  position: (typeof widgetPositions)[number];
  screenshot: boolean;
  upload: boolean;
  video: boolean;
  /**
   * Session replay, after the plan (docs/replay.md): present when the loader should load the recorder
   * once the page is idle; `maskText` masks all text too. Absent: steps and logs only.
   */
  replay?: { maskText: boolean };
  /**
   * Strict privacy mode (docs/privacy.md): the form asks for no email, and the report leaves the page
   * without query strings, fragments or further log lines (contracts/strict-privacy.ts). Absent: off.
   */
  strictPrivacy?: true;
  welcomeScreen: boolean;
  branding: boolean;
  customFields: { name: string; selector: string }[];
  /**
   * The client's own texts for `language` (widgetTexts), plain text; absent keys show the built-in ones.
   * Optional: a page may still run a loader served before texts existed.
   */
  texts?: WidgetTextSet;
  /**
   * The automatic language (`widgetLanguageAuto`): the languages the widget may pick from the visitor's
   * browser, `language` being the fallback (widget/src/language.ts). Absent: `language` always.
   */
  languages?: (typeof widgetLanguages)[number][];
  /** With `languages`: the client's own texts of every language (in place of `texts`). */
  textSets?: Partial<Record<(typeof widgetLanguages)[number], WidgetTextSet>>;
  /** Origin of the API the app posts to (the dashboard's origin). */
  api: string;
}

/** The query parameter that turns test mode on (SPEC: `{product}=1`). */
export const TEST_MODE_PARAM = 'snag';
