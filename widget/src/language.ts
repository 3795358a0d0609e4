/**
 * The language the widget speaks on this browser (docs/widget-api.md "Language"). A project with the
 * automatic language sends the languages Snag has (`languages`) and its own texts of each (`textSets`):
 * the first of the visitor's languages (navigator.languages, by primary subtag) that Snag has wins, else
 * the project's chosen language. It runs in the loader because each language is its own app file, so the
 * choice names the file to load; a project with a fixed language passes through untouched.
 */
import type { WidgetConfig } from '#contracts/widget-config';

export function withLanguage(config: WidgetConfig, wanted: readonly string[] | undefined): WidgetConfig {
  const offered = config.languages;
  if (!offered) return config;
  const language = ((wanted || [])
    .map((tag) => tag.split('-')[0]!.toLowerCase())
    .find((l) => offered.includes(l as WidgetConfig['language'])) ||
    config.language) as WidgetConfig['language'];
  return Object.assign({}, config, { language, texts: config.textSets?.[language] });
}
