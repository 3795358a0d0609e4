/**
 * The browser extension's build (docs/extension.md, decision EXT-1): WXT, one source for Chromium browsers
 * and Firefox, both Manifest V3. `npm run build:extension` builds dist/extension/{chrome,firefox}/ (unpacked)
 * and one zip per browser in dist/extension/.
 *
 * Least privilege: `activeTab` + `scripting` inject the reporter into the tab the user acted on; `storage`
 * keeps the server, the token and the per-site choices. No host permission at install: the Snag server's
 * origin is asked for when the user sets it, a site's origin when the user turns on "capture logs from page
 * load" there. Both are optional host permissions.
 */
import { readFileSync } from 'node:fs';
import { defineConfig } from 'wxt';

/** The extension's version is the repository's. */
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

export default defineConfig({
  srcDir: '.',
  outDir: '../dist/extension',
  outDirTemplate: '{{browser}}',
  manifestVersion: 3,
  // Explicit imports everywhere: the repository's typecheck and lint read these files as plain TypeScript.
  imports: false,
  zip: {
    artifactTemplate: 'snag-{{version}}-{{browser}}.zip',
    // The sources zip is for AMO review; the repository is the source here (README "Publishing").
    zipSources: false,
  },
  hooks: {
    // WXT names the action after the popup's <title>; the toolbar's tooltip is a translated message.
    'build:manifestGenerated': (_wxt, manifest) => {
      if (manifest.action) manifest.action.default_title = '__MSG_actionTitle__';
    },
  },
  manifest: ({ browser }) => ({
    name: '__MSG_extName__',
    version,
    description: '__MSG_extDescription__',
    default_locale: 'en',
    permissions: ['activeTab', 'scripting', 'storage'],
    // Asked at run time, never at install: the Snag server, and sites with logs from page load.
    optional_host_permissions: ['http://*/*', 'https://*/*'],
    action: { default_title: '__MSG_actionTitle__' },
    icons: { 16: 'icons/16.png', 32: 'icons/32.png', 48: 'icons/48.png', 128: 'icons/128.png' },
    commands: {
      'report-bug': {
        suggested_key: { default: 'Alt+Shift+S' },
        description: '__MSG_commandReport__',
      },
    },
    ...(browser === 'firefox'
      ? {
          browser_specific_settings: {
            gecko: {
              id: 'extension@snag.dev',
              // MAIN-world scripts registered at run time, optional host permissions in MV3 (128), and the
              // data collection declaration (140: the current ESR runs it; Android from 142).
              strict_min_version: '140.0',
              data_collection_permissions: { required: ['websiteContent', 'websiteActivity'] },
            },
            gecko_android: { strict_min_version: '142.0' },
          },
        }
      : { minimum_chrome_version: '116' }),
  }),
});
