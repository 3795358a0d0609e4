/**
 * Synthesizes the app once, in memory, the way `cdk synth` does (same `buildApp`), into a temp dir.
 * Validation failures are collected into the report instead of thrown so a test can name them.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CfnElement, Stack, Validations } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { CloudAssembly } from 'aws-cdk-lib/cx-api';
import type { IConstruct } from 'constructs';
import { buildApp, type SnagApp } from '../../lib/app';

export interface Synthesized extends SnagApp {
  assembly: CloudAssembly;
  template: Template;
  /** The us-east-1 web ACL stack's template, when the stage has one. */
  edgeTemplate?: Template;
  /** Every violation left in the validation report (all plugins, errors and warnings). */
  violations: { plugin: string; rule: string; severity: string; paths: string[] }[];
}

interface Report {
  pluginReports: {
    pluginName: string;
    violations: { ruleName: string; severity: string; violatingConstructs?: { constructPath?: string }[] }[];
  }[];
}

export function synth(context: Record<string, unknown>): Synthesized {
  const outdir = mkdtempSync(join(tmpdir(), 'snag-cdk-'));
  const built = buildApp({ ...context, '@aws-cdk/core:failSynthOnValidationErrors': false }, { outdir });
  const assembly = built.app.synth();
  const reportFile = join(outdir, 'validation-report.json');
  // CDK writes the report whenever a validation plugin ran; a missing file would mean nag never ran.
  if (!existsSync(reportFile)) throw new Error(`no validation report in ${outdir}`);
  const report: Report = JSON.parse(readFileSync(reportFile, 'utf8'));
  const violations = report.pluginReports.flatMap((p) =>
    p.violations.map((v) => ({
      plugin: p.pluginName,
      rule: v.ruleName,
      severity: v.severity,
      paths: (v.violatingConstructs ?? []).map((c) => c.constructPath ?? '?'),
    })),
  );
  const template = Template.fromJSON(assembly.getStackByName(built.stack.stackName).template);
  const edgeTemplate = built.edge
    ? Template.fromJSON(assembly.getStackByName(built.edge.stackName).template)
    : undefined;
  return { ...built, assembly, template, violations, ...(edgeTemplate ? { edgeTemplate } : {}) };
}

/** The logical id CloudFormation knows a construct's resource by. */
export const logicalId = (c: IConstruct): string =>
  Stack.of(c).resolve(((c.node.defaultChild ?? c) as CfnElement).logicalId);

/** All acknowledgements in the tree: where, which rule, why. */
export function acknowledgements(root: IConstruct): { path: string; id: string; reason: string }[] {
  return root.node.findAll().flatMap((c) =>
    c.node.metadata
      .filter((m) => m.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
      .flatMap((m) =>
        Object.entries(m.data as Record<string, string>).map(([id, reason]) => ({
          path: c.node.path,
          id: id.replace(/^annotation::/i, ''),
          reason,
        })),
      ),
  );
}

/** A stand-in for `npm run build`'s output, so the asset deployments are part of the synth. */
export function fakeBuild(): { webDist: string; widgetDist: string } {
  const dir = mkdtempSync(join(tmpdir(), 'snag-dist-'));
  mkdirSync(join(dir, 'web/assets'), { recursive: true });
  mkdirSync(join(dir, 'widget'), { recursive: true });
  writeFileSync(join(dir, 'web/index.html'), '<!doctype html><div id="root"></div>');
  writeFileSync(join(dir, 'web/assets/index-abc123.js'), 'console.log(1)');
  writeFileSync(join(dir, 'widget/app.abc123.js'), 'console.log(2)');
  return { webDist: join(dir, 'web'), widgetDist: join(dir, 'widget') };
}
