/**
 * Deployment settings, read once from CDK context (cdk.json, `-c key=value`, or `buildApp(context)` in
 * tests) and validated so that a typo fails the synth instead of deploying something unintended.
 */
import { RemovalPolicy } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Node } from 'constructs';

export type StageName = 'dev' | 'prod';

export interface Settings {
  stage: StageName;
  /** Custom domain of the dashboard (and /api, /widget); with `certificateArn` (us-east-1). */
  domainName?: string;
  certificateArn?: string;
  /** Domain verified in SES; mail goes out as no-reply@ it. */
  mailDomain: string;
  /** SSM SecureString parameter (JSON) holding the secrets. */
  secretsParameter: string;
  marketingUrl?: string;
  /** Who gets Business plan requests (OPERATOR_EMAIL); `operators@<mailDomain>` unless given. */
  operatorEmail: string;
  /**
   * The seller on invoices (issue 19): context `sellerName`, `sellerAddress` (lines separated by `;`),
   * `sellerCountry`, `sellerVatId`, `sellerVatRate`, `invoicePrefix`, passed to the functions as
   * SELLER_* / INVOICE_PREFIX (docs/operations.md "Invoices"). Unset ones keep the local placeholders.
   */
  seller: Record<string, string>;
  /** Google sign-in OAuth client id; without it Google sign-in is off (build the dashboard with the same id). */
  googleClientId?: string;
  /** OAuth app client ids of Slack and Asana (issue 11); their secrets are in the secrets parameter. */
  slackClientId?: string;
  asanaClientId?: string;
  logLevel: 'debug' | 'info' | 'warn' | 'error';
  /**
   * Generation of the edge secret (README "Rotating the edge secret"): a new value replaces the secret, so
   * CloudFront and every API function change to it in the same deploy.
   */
  edgeSecretGeneration: number;
  /**
   * The WAF web ACL on CloudFront (lib/stacks/edge-acl.ts): context `waf` on|off, on by default in prod.
   * `wafAclArn` attaches an ACL managed elsewhere instead of the one Snag creates.
   */
  waf: boolean;
  wafAclArn?: string;
  /** Where alarm notifications go (an email subscription of the alarm topic); none without it. */
  alarmEmail?: string;
  /**
   * Cost anomaly detection (docs/operations.md "Alarms"): `create` makes an AWS-services monitor (an
   * account holds only one, so it is opt-in), an anomaly monitor ARN subscribes the alarm topic to an
   * existing one, unset means none.
   */
  costAnomalyMonitor?: string;
  /** Built front ends; deployed only when present at synth time (a prod synth fails without them). */
  webDist: string;
  widgetDist: string;
  /** Derived from the stage. */
  removalPolicy: RemovalPolicy;
  logRetention: RetentionDays;
}

const optional = (node: Node, key: string): string | undefined => {
  const v = node.tryGetContext(key);
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string') throw new Error(`Context "${key}" must be a string`);
  return v;
};

/** Context key → the functions' variable it sets (functions/runtime/config.ts). */
const sellerContext = {
  sellerName: 'SELLER_NAME',
  sellerAddress: 'SELLER_ADDRESS',
  sellerCountry: 'SELLER_COUNTRY',
  sellerVatId: 'SELLER_VAT_ID',
  sellerVatRate: 'SELLER_VAT_RATE',
  invoicePrefix: 'INVOICE_PREFIX',
} as const;

export function readSettings(node: Node): Settings {
  const stage = optional(node, 'stage') ?? 'dev';
  if (stage !== 'dev' && stage !== 'prod')
    throw new Error(`Context "stage" must be dev or prod, not "${stage}"`);
  const domainName = optional(node, 'domainName');
  const certificateArn = optional(node, 'certificateArn');
  if (!!domainName !== !!certificateArn) {
    throw new Error('Context "domainName" and "certificateArn" go together: set both or neither');
  }
  if (certificateArn && !certificateArn.startsWith('arn:aws:acm:us-east-1:')) {
    throw new Error(
      'Context "certificateArn" must be an ACM certificate in us-east-1 (CloudFront requires it)',
    );
  }
  const logLevel = optional(node, 'logLevel') ?? 'info';
  if (!['debug', 'info', 'warn', 'error'].includes(logLevel)) {
    throw new Error(`Context "logLevel" must be debug, info, warn or error, not "${logLevel}"`);
  }
  const generation = Number(optional(node, 'edgeSecretGeneration') ?? '1');
  if (!Number.isInteger(generation) || generation < 1) {
    throw new Error('Context "edgeSecretGeneration" must be a positive integer');
  }
  const alarmEmail = optional(node, 'alarmEmail');
  // One address, nothing SNS would reject after a long deploy: a typo fails the synth instead.
  if (alarmEmail !== undefined && !/^[^\s@,;<>]+@[^\s@,;<>]+\.[^\s@,;<>]+$/.test(alarmEmail)) {
    throw new Error(`Context "alarmEmail" must be one email address, not "${alarmEmail}"`);
  }
  const costAnomalyMonitor = optional(node, 'costAnomalyMonitor');
  if (
    costAnomalyMonitor !== undefined &&
    costAnomalyMonitor !== 'create' &&
    !/^arn:aws:ce::\d{12}:anomalymonitor\/[\w-]+$/.test(costAnomalyMonitor)
  ) {
    throw new Error('Context "costAnomalyMonitor" must be "create" or an anomaly monitor ARN');
  }
  const prod = stage === 'prod';
  const waf = optional(node, 'waf') ?? (prod ? 'on' : 'off');
  if (waf !== 'on' && waf !== 'off') throw new Error(`Context "waf" must be on or off, not "${waf}"`);
  const wafAclArn = optional(node, 'wafAclArn');
  if (wafAclArn && !/^arn:aws:wafv2:us-east-1:\d{12}:global\/webacl\//.test(wafAclArn)) {
    throw new Error('Context "wafAclArn" must be a CLOUDFRONT-scope web ACL ARN (wafv2, us-east-1, global)');
  }
  return {
    stage,
    domainName,
    certificateArn,
    mailDomain: optional(node, 'mailDomain') ?? 'snag.example.com',
    secretsParameter: optional(node, 'secretsParameter') ?? `/snag/${stage}/secrets`,
    marketingUrl: optional(node, 'marketingUrl'),
    operatorEmail:
      optional(node, 'operatorEmail') ?? `operators@${optional(node, 'mailDomain') ?? 'snag.example.com'}`,
    seller: Object.fromEntries(
      Object.entries(sellerContext).flatMap(([key, variable]) => {
        const value = optional(node, key);
        return value === undefined ? [] : [[variable, value]];
      }),
    ),
    googleClientId: optional(node, 'googleClientId'),
    slackClientId: optional(node, 'slackClientId'),
    asanaClientId: optional(node, 'asanaClientId'),
    logLevel: logLevel as Settings['logLevel'],
    edgeSecretGeneration: generation,
    waf: waf === 'on' || !!wafAclArn,
    wafAclArn,
    alarmEmail,
    costAnomalyMonitor,
    webDist: optional(node, 'webDist') ?? 'dist/web',
    widgetDist: optional(node, 'widgetDist') ?? 'dist/widget',
    // Outside dev, data outlives the stack: a deleted stack must never take customers' issues with it.
    removalPolicy: prod ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    logRetention: prod ? RetentionDays.THREE_MONTHS : RetentionDays.ONE_WEEK,
  };
}
