/**
 * Pure rules of the project screens (SPEC.md sections 2, 5 and 6), kept free of React for unit tests:
 * API paths, the project allowance, the install snippet, the domain rule as users read it, and colour
 * contrast for the widget's scheme.
 */

import { contrastRatio } from '#contracts/contrast';
import { displayDomain } from '#contracts/domains';
import type { WidgetSettings } from '#contracts/schemas';
import { TEST_MODE_PARAM } from '#contracts/widget-config';
import { schemeForeground } from '../../../widget/src/launcher';
import { endpointPath } from '../api/endpoints';

/** The SWR keys (and addresses) of the project list and of one project. */
export const projectsPath = endpointPath('projects.list');
export const projectPath = (id: string | number) => endpointPath('projects.get', { params: { id } });

/** SPEC.md section 6: a new project only while the count is below the allowance (null = unlimited). */
export function belowAllowance(allowed: number | null | undefined, count: number): boolean {
  if (allowed === null) return true;
  if (allowed === undefined) return false; // Unknown plan: the server decides; offer nothing.
  return count < allowed;
}

/** The install snippet: the loader script of the project, from the dashboard's own origin. */
export function installSnippet(appOrigin: string, id: string): string {
  return `<script async src="${appOrigin}/api/website/${encodeURIComponent(id)}/code"></script>`;
}

export type DomainRule =
  | { kind: 'any' }
  | { kind: 'exact'; host: string }
  | { kind: 'subdomains'; host: string; example: string };

/**
 * How functions/contracts/domains.ts `hostMatches` reads for a person: a project for example.com (or
 * www.example.com) shows on example.com and every subdomain; an IP address or localhost only on itself.
 */
export function domainRule(domain: string, wildcard: boolean): DomainRule {
  if (wildcard) return { kind: 'any' };
  const bare = displayDomain(domain);
  if (!bare.includes('.') || /^[\d.]+$/.test(bare) || bare.startsWith('['))
    return { kind: 'exact', host: bare };
  return { kind: 'subdomains', host: bare, example: `www.${bare}` };
}

/** The address to try the widget on: the project's site, with `?snag=1` in test mode. */
export function verifyUrl(domain: string, testMode: boolean): string {
  return `https://${domain}/${testMode ? `?${TEST_MODE_PARAM}=1` : ''}`;
}

/** Widget language names in their own language: visitors, not the dashboard user, read them. */
export const languageNames: Record<WidgetSettings['widgetLanguage'], string> = {
  en: 'English',
  cs: 'Čeština',
  fr: 'Français',
  de: 'Deutsch',
  ru: 'Русский',
  es: 'Español',
};

/** The widget settings the appearance screen edits (the rest live on other screens). */
export const appearanceKeys = [
  'widgetLanguage',
  'widgetLanguageAuto',
  'widgetColor',
  'widgetColorScheme',
  'widgetText',
  'widgetPosition',
  'widgetDisableScreenshot',
  'widgetDisableUpload',
  'widgetDisableVideo',
  // Issue 33: session replay.
  'widgetReplay',
  'widgetReplayMaskText',
  'widgetDisableWelcomeScreen',
  'widgetDisableMobile',
  'widgetDisableBranding',
  'widgetTexts',
  // Issue 24: the reporter's mails and status page.
  'reporterUpdates',
  'reporterSenderName',
] as const satisfies readonly (keyof WidgetSettings)[];
export type Appearance = Pick<WidgetSettings, (typeof appearanceKeys)[number]>;

export function appearanceOf(data: WidgetSettings): Appearance {
  return Object.fromEntries(appearanceKeys.map((k) => [k, data[k]])) as Appearance;
}

export { contrastRatio };

export const isHexColor = (value: string) => /^#[0-9a-f]{6}$/i.test(value);

/**
 * The widget's colour carries the launcher's label and the dialog header's title, both normal-size text,
 * so WCAG 1.4.3 asks 4.5:1 of the scheme's text on it (3:1 holds only for large text and controls).
 */
export const minWidgetTextContrast = 4.5;

type Scheme = keyof typeof schemeForeground;

/**
 * The scheme to suggest when the chosen one leaves the widget's text below 4.5:1 on its colour and the other
 * reads better; undefined when the choice is fine, or when the other is no better (then only the colour helps).
 */
export function betterScheme(color: string, scheme: Scheme): Scheme | undefined {
  if (!isHexColor(color)) return undefined;
  const other: Scheme = scheme === 'white' ? 'black' : 'white';
  const chosen = contrastRatio(color, schemeForeground[scheme]);
  if (chosen >= minWidgetTextContrast) return undefined;
  return contrastRatio(color, schemeForeground[other]) > chosen ? other : undefined;
}
