/**
 * The script behind the install snippet (`GET /api/website/{id}/code`): the built widget loader
 * (dist/widget/loader.js) wrapped in a function that hands it the project's configuration, so nothing
 * global is created beyond the loader's own `window.Snag`.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { widgetLanguages } from '#contracts/schemas';
import type { WidgetConfig } from '#contracts/widget-config';
import { getConfig } from '#runtime/config';
import { effectiveSettings, type PlanHolder, type Project } from './project';

let cached: { dir: string; source: string } | undefined;

/** The built loader, read once per container (WIDGET_DIR: dist/widget locally, bundled beside the Lambda). */
export function loaderSource(): string {
  const dir = resolve(getConfig().WIDGET_DIR);
  if (cached?.dir !== dir) cached = { dir, source: readFileSync(join(dir, 'loader.js'), 'utf8') };
  return cached.source;
}

export function widgetConfig(project: Project, owner: PlanHolder): WidgetConfig {
  const s = effectiveSettings(project.data, owner);
  return {
    id: project.id,
    host: project.host,
    wildcard: s.widgetDomainWildcard,
    testMode: project.activeParam === 1,
    hideOnMobile: s.widgetDisableMobile,
    language: s.widgetLanguage,
    color: s.widgetColor,
    scheme: s.widgetColorScheme,
    text: s.widgetText,
    position: s.widgetPosition,
    screenshot: !s.widgetDisableScreenshot,
    upload: !s.widgetDisableUpload,
    video: !s.widgetDisableVideo,
    // Present only where the plan and the project allow it: the loader then loads the recorder (docs/replay.md).
    // A strict project's recordings mask all text, whatever the replay setting says (docs/privacy.md).
    ...(s.widgetReplay ? { replay: { maskText: s.widgetReplayMaskText || s.strictPrivacy } } : {}),
    ...(s.strictPrivacy ? { strictPrivacy: true as const } : {}),
    welcomeScreen: !s.widgetDisableWelcomeScreen,
    branding: !s.widgetDisableBranding,
    customFields: s.customFields,
    // Only the language the widget speaks: every page view downloads this configuration. With the
    // automatic language the browser picks it, so every language's own texts come along instead.
    ...(s.widgetLanguageAuto
      ? { languages: [...widgetLanguages], textSets: s.widgetTexts }
      : { texts: s.widgetTexts[s.widgetLanguage] ?? {} }),
    api: getConfig().APP_ORIGIN,
  };
}

/** JSON that is safe inside a script: no `</script>`, no line terminators JavaScript rejects. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

export function renderLoader(config: WidgetConfig): string {
  return `/* Snag widget */(function(__SNAG_CONFIG__){${loaderSource()}\n})(${scriptJson(config)});\n`;
}

/** What an unknown, deleted or inactive project serves: nothing happens on the host page. */
export const noopLoader = '/* Snag: this project does not collect feedback */\n';
