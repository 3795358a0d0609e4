/**
 * One Lambda function the way every Snag function is built: bundled ESM from lib/bundling.ts, arm64, its
 * own log group (retention from the stage) and its own role that may write only to that log group. The
 * role gets no AWS managed policy: each construct grants exactly what its function calls. Active X-Ray
 * tracing is on for every function.
 */
import { Duration, Validations } from 'aws-cdk-lib';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { nodejsBundling, nodeMajor } from '../bundling';
import { fromRoot, repoRoot } from '../paths';
import { widgetDirInLambda } from '../resources';
import type { Settings } from '../settings';

/** Copies the built loader into the bundle, building the widget first on a fresh clone. */
const widgetHooks = {
  beforeBundling: () => [],
  beforeInstall: () => [],
  afterBundling: (inputDir: string, outputDir: string) => [
    `test -f "${inputDir}/dist/widget/loader.js" || (cd "${inputDir}" && node --import tsx widget/build.ts)`,
    `mkdir -p "${outputDir}/widget"`,
    `cp "${inputDir}/dist/widget/loader.js" "${outputDir}/widget/loader.js"`,
  ],
};

export const lambdaRuntime = nodeMajor === 24 ? Runtime.NODEJS_24_X : Runtime.NODEJS_22_X;

export interface SnagFunctionProps {
  /** Source file, relative to the repository root; it exports `handler`. */
  entry: string;
  settings: Settings;
  environment: Record<string, string>;
  timeout?: Duration;
  memorySize?: number;
  description: string;
  /** Bundle the built widget loader beside the handler (lib/resources.ts `widgetResources`). */
  withWidget?: boolean;
}

export class SnagFunction extends Construct {
  readonly fn: NodejsFunction;
  readonly role: Role;

  constructor(scope: Construct, id: string, props: SnagFunctionProps) {
    super(scope, id);
    const logGroup = new LogGroup(this, 'Logs', {
      retention: props.settings.logRetention,
      removalPolicy: props.settings.removalPolicy,
    });
    this.role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: props.description,
    });
    logGroup.grantWrite(this.role);
    this.fn = new NodejsFunction(this, 'Function', {
      entry: fromRoot(props.entry),
      projectRoot: repoRoot,
      depsLockFilePath: fromRoot('package-lock.json'),
      handler: 'handler',
      runtime: lambdaRuntime,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 512,
      timeout: props.timeout ?? Duration.seconds(10),
      description: props.description,
      role: this.role,
      logGroup,
      // Every invocation is traced (issue 10); the role gets X-Ray's write actions for it.
      tracing: Tracing.ACTIVE,
      bundling: props.withWidget ? { ...nodejsBundling(), commandHooks: widgetHooks } : nodejsBundling(),
      environment: {
        ...props.environment,
        ...(props.withWidget ? { WIDGET_DIR: widgetDirInLambda } : {}),
        // Stack traces in the logs point at the TypeScript sources.
        NODE_OPTIONS: '--enable-source-maps',
      },
    });
    Validations.of(this.role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'Active tracing: xray:PutTraceSegments and PutTelemetryRecords support no resource-level ' +
        'permissions, so Lambda needs them on "*"; they only write trace data.',
    });
  }
}
