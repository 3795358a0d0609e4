/**
 * Builds the CDK app: the stage's stack plus cdk-nag's AwsSolutions checks as a validation plugin.
 * bin/snag.ts (the CLI's entry) and the CDK tests both call `buildApp`, so tests check exactly what
 * `cdk synth` produces.
 */
import { readFileSync } from 'node:fs';
import { App, type AppProps, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { fromRoot } from './paths';
import { readSettings } from './settings';
import { EdgeAclStack } from './stacks/edge-acl';
import { SnagStack } from './stacks/snag-stack';

/** cdk.json's context (feature flags, validation), which the CLI would otherwise be the only one to read. */
const cdkJsonContext = (): Record<string, unknown> =>
  JSON.parse(readFileSync(fromRoot('cdk.json'), 'utf8')).context ?? {};

export interface SnagApp {
  app: App;
  stack: SnagStack;
  /** The us-east-1 stack of the WAF web ACL, when the stage has WAF and no ACL of its own. */
  edge?: EdgeAclStack;
}

/**
 * `context` overrides cdk.json (tests pass stage and friends here); under the CLI, `-c` values override
 * both. `outdir` defaults to the CLI's choice or cdk.out.
 */
export function buildApp(
  context: Record<string, unknown> = {},
  props: Omit<AppProps, 'context'> = {},
): SnagApp {
  const app = new App({ ...props, context: { ...cdkJsonContext(), ...context } });
  const settings = readSettings(app.node);
  const edge =
    settings.waf && !settings.wafAclArn
      ? new EdgeAclStack(app, `Snag-${settings.stage}-edge`, settings, {
          description: `Snag bug reporting (${settings.stage}): CloudFront web ACL`,
        })
      : undefined;
  // Env-agnostic on purpose: no lookups, so synth needs no AWS credentials.
  const stack = new SnagStack(app, `Snag-${settings.stage}`, settings, {
    description: `Snag bug reporting (${settings.stage})`,
  });
  // The ACL's ARN must be published before the distribution reads it.
  if (edge) stack.addDependency(edge);
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return { app, stack, ...(edge ? { edge } : {}) };
}
