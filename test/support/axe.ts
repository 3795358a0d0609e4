/**
 * axe-core in a page of the browser tests (issue 20): the WCAG 2.2 A/AA rules plus the ones the issue named,
 * one line per failing rule. Shared by the accessibility walk (test/e2e/a11y.test.ts) and the screens'
 * own browser tests.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/** Evaluated rather than added as a script tag: the dashboard's CSP (rightly) refuses inline scripts. */
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe's WCAG A/AA tags up to 2.2. */
const wcagTags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
/**
 * Rules the issue named that axe keeps outside those tags or rates below serious: `region` (content
 * outside landmarks, best practice, moderate) and `label-content-name-mismatch` (experimental in axe 4).
 */
const requiredRules = ['region', 'label-content-name-mismatch', 'link-in-text-block'];

interface AxeNode {
  target: unknown[];
  any: { data?: { fgColor?: string; bgColor?: string; contrastRatio?: number } | null }[];
}
interface AxeViolation {
  id: string;
  impact: string | null;
  nodes: AxeNode[];
}

/** One element of a violation: its colours for a contrast finding, else its selector. */
const describeNode = (n: AxeNode) => {
  const d = n.any.find((c) => c.data?.fgColor)?.data;
  return d ? `${d.fgColor} on ${d.bgColor} ${d.contrastRatio}:1 (${n.target.join(' ')})` : n.target.join(' ');
};

/** The violations on the page now that fail the bar, one line each with their distinct elements. */
export async function axeFindings(page: Page): Promise<string[]> {
  // Judge the screen as it settles, not mid-fade: a dialog or overlay fading in reads as 1.1:1 contrast,
  // and a list refetching is dimmed (aria-busy) until its answer arrives. Endless animations (spinners,
  // skeletons) are left running, and a busy button is its own state (Google's button waits for a script
  // that may never load offline); anything stuck costs at most 3 s.
  await page
    .waitForFunction(
      () =>
        !document.querySelector('[aria-busy="true"]:not(button)') &&
        document
          .getAnimations()
          .every(
            (a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Number.POSITIVE_INFINITY,
          ),
      undefined,
      { timeout: 3000 },
    )
    .catch(() => undefined);
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const violations = await page.evaluate(
    async ({ tags, rules }) => {
      const axe = (window as unknown as { axe: { run: (c: unknown, o: unknown) => Promise<unknown> } }).axe;
      const result = (await axe.run(document, {
        runOnly: { type: 'tag', values: tags },
        rules: Object.fromEntries(rules.map((id) => [id, { enabled: true }])),
        // The issue snapshot's frame shows the visitor's page, not ours, and runs no script.
        iframes: false,
        resultTypes: ['violations'],
      })) as { violations: AxeViolation[] };
      return result.violations;
    },
    { tags: wcagTags, rules: requiredRules },
  );
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical' || requiredRules.includes(v.id))
    .map((v) => `${v.id} [${v.impact}]: ${[...new Set(v.nodes.map(describeNode))].join('; ')}`);
}
