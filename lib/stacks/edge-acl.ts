/**
 * The WAF web ACL in front of CloudFront (issue 10): rate-based rules per client IP on the calls an
 * attacker repeats (sign-in, registration, the reset and resend calls, the widget's intake) and AWS's IP
 * reputation list. CloudFront only takes ACLs from us-east-1, and the Snag stack is region-agnostic, so
 * the ACL is a stack of its own in us-east-1 that publishes its ARN in an SSM parameter there; the Snag
 * stack reads it at deploy time (`EdgeAclReference`). `cdk deploy --all` deploys this stack first.
 *
 * On by default in prod (context `waf`), off in dev; context `wafAclArn` attaches an ACL you manage instead.
 */
import { Arn, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { StringParameter } from 'aws-cdk-lib/aws-ssm';
import { CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import { AwsCustomResource, AwsCustomResourcePolicy, PhysicalResourceId } from 'aws-cdk-lib/custom-resources';
import { Construct } from 'constructs';
import type { Settings } from '../settings';

/** Where the ACL's ARN is published, in us-east-1. */
export const edgeAclParameter = (stage: string) => `/snag/${stage}/edge-acl-arn`;

/**
 * Requests per client IP per 5 minutes before WAF blocks that IP for the rest of the window. Far above
 * what a person does (the API's own limits answer RATE_LIMITED much earlier, per account and address);
 * these stop floods before they cost Lambda invocations.
 */
export const edgeRateRules = [
  { name: 'SignIn', limit: 300, method: 'POST', paths: [['EXACTLY', '/api/client/login']] },
  { name: 'Registration', limit: 100, method: 'POST', paths: [['STARTS_WITH', '/api/registration/']] },
  { name: 'ResetAndResend', limit: 100, method: 'POST', paths: [['STARTS_WITH', '/api/restore/']] },
  // Each report is one call plus one upload form per object (up to ~10).
  { name: 'Intake', limit: 2000, method: 'POST', paths: [['STARTS_WITH', '/api/website/']] },
] as const;

const visibility = (metricName: string) => ({
  cloudWatchMetricsEnabled: true,
  metricName,
  sampledRequestsEnabled: true,
});

export class EdgeAclStack extends Stack {
  readonly acl: CfnWebACL;

  constructor(scope: Construct, id: string, settings: Settings, props: StackProps = {}) {
    super(scope, id, { ...props, env: { region: 'us-east-1' } });
    const rateRules = edgeRateRules.map((rule, i) => ({
      name: rule.name,
      priority: 10 + i,
      action: { block: {} },
      visibilityConfig: visibility(`snag-${settings.stage}-${rule.name}`),
      statement: {
        rateBasedStatement: {
          limit: rule.limit,
          evaluationWindowSec: 300,
          aggregateKeyType: 'IP',
          scopeDownStatement: {
            andStatement: {
              statements: [
                {
                  byteMatchStatement: {
                    fieldToMatch: { method: {} },
                    positionalConstraint: 'EXACTLY',
                    searchString: rule.method,
                    textTransformations: [{ priority: 0, type: 'NONE' }],
                  },
                },
                ...rule.paths.map(([constraint, path]) => ({
                  byteMatchStatement: {
                    fieldToMatch: { uriPath: {} },
                    positionalConstraint: constraint,
                    searchString: path,
                    textTransformations: [{ priority: 0, type: 'NONE' }],
                  },
                })),
              ],
            },
          },
        },
      },
    }));
    this.acl = new CfnWebACL(this, 'Acl', {
      name: `snag-${settings.stage}-edge`,
      description: `Snag ${settings.stage}: rate limits per IP on sign-in, registration, resets and intake`,
      scope: 'CLOUDFRONT',
      defaultAction: { allow: {} },
      visibilityConfig: visibility(`snag-${settings.stage}-edge`),
      rules: [
        {
          name: 'AmazonIpReputation',
          priority: 0,
          overrideAction: { none: {} },
          visibilityConfig: visibility(`snag-${settings.stage}-ip-reputation`),
          statement: {
            managedRuleGroupStatement: { vendorName: 'AWS', name: 'AWSManagedRulesAmazonIpReputationList' },
          },
        },
        ...rateRules,
      ],
    });
    new StringParameter(this, 'AclArn', {
      parameterName: edgeAclParameter(settings.stage),
      stringValue: this.acl.attrArn,
      description: 'ARN of the Snag CloudFront web ACL, read by the Snag stack at deploy time',
    });
  }
}

/** Reads the ACL's ARN from us-east-1 at deploy time: the distribution's `webAclId`. */
export class EdgeAclReference extends Construct {
  readonly arn: string;

  constructor(scope: Construct, id: string, settings: Settings) {
    super(scope, id);
    const name = edgeAclParameter(settings.stage);
    const reader = new AwsCustomResource(this, 'Reader', {
      logGroup: new LogGroup(this, 'Logs', {
        retention: settings.logRetention,
        removalPolicy: settings.removalPolicy,
      }),
      onUpdate: {
        service: 'SSM',
        action: 'getParameter',
        parameters: { Name: name },
        region: 'us-east-1',
        physicalResourceId: PhysicalResourceId.of(name),
      },
      policy: AwsCustomResourcePolicy.fromSdkCalls({
        resources: [
          Arn.format(
            { service: 'ssm', region: 'us-east-1', resource: 'parameter', resourceName: name.slice(1) },
            Stack.of(this),
          ),
        ],
      }),
      installLatestAwsSdk: false,
    });
    this.arn = reader.getResponseField('Parameter.Value');
    // The reader runs in CDK's singleton provider function, whose role CDK makes.
    const providerId = `AWS${AwsCustomResource.PROVIDER_FUNCTION_UUID.replace(/-/g, '')}`;
    const provider = Stack.of(this).node.tryFindChild(providerId);
    if (!provider) throw new Error('AwsCustomResource provider not found; CDK changed its construct id');
    Validations.of(provider).acknowledge({
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
      reason:
        "CDK's AwsCustomResource provider (reads the web ACL's ARN once per deploy) gets the basic execution " +
        'policy: it writes only its own logs; its one other grant is ssm:GetParameter on that parameter.',
    });
  }
}
