/**
 * The prod stage with a custom domain: data and queues are retained, the custom domain is the app's
 * origin, WAF is on, and a synth without the front-end build fails. Bundling is skipped (the dev file
 * covers it).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { queueNames } from '#contracts/manifest';
import { buildApp } from '../../lib/app';
import { edgeAclParameter, edgeRateRules } from '../../lib/stacks/edge-acl';
import { acknowledgements, fakeBuild, logicalId, type Synthesized, synth } from './synth';

const domainName = 'app.snag.example.com';
const certificateArn = 'arn:aws:acm:us-east-1:123456789012:certificate/00000000-0000-0000-0000-000000000000';
let s: Synthesized;

beforeAll(() => {
  s = synth({
    stage: 'prod',
    domainName,
    certificateArn,
    sellerName: 'Snag Software GmbH',
    sellerVatId: 'DE136695976',
    ...fakeBuild(),
    'aws:cdk:bundling-stacks': [],
  });
});

describe('prod stage', () => {
  it('retains the table and the uploads bucket and protects the stack', () => {
    const resources = s.template.toJSON().Resources;
    for (const c of [s.stack.data.table, s.stack.data.uploads]) {
      expect(resources[logicalId(c)]).toMatchObject({
        DeletionPolicy: 'Retain',
        UpdateReplacePolicy: 'Retain',
      });
    }
    expect(resources[logicalId(s.stack.data.table)].Properties).toMatchObject({
      DeletionProtectionEnabled: true,
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
    });
    for (const q of queueNames) {
      for (const c of [s.stack.queues.queues[q], s.stack.queues.deadLetters[q]])
        expect(resources[logicalId(c)]).toMatchObject({
          DeletionPolicy: 'Retain',
          UpdateReplacePolicy: 'Retain',
        });
    }
    s.template.resourceCountIs('Custom::S3AutoDeleteObjects', 0);
    expect(s.stack.terminationProtection).toBe(true);
    s.template.allResourcesProperties('AWS::Logs::LogGroup', { RetentionInDays: 90 });
  });

  it('serves the custom domain with TLS 1.2 and uses it as APP_ORIGIN', () => {
    s.template.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: {
        Aliases: [domainName],
        ViewerCertificate: { AcmCertificateArn: certificateArn, MinimumProtocolVersion: 'TLSv1.2_2021' },
      },
    });
    for (const f of s.stack.api.functions.values()) {
      const env = s.template.toJSON().Resources[logicalId(f.fn)].Properties.Environment.Variables;
      expect(env).toMatchObject({ APP_ORIGIN: `https://${domainName}`, SNAG_STAGE: 'prod' });
    }
  });

  it('gives the functions the seller of invoices from context, and nothing for what is not set', () => {
    for (const f of s.stack.api.functions.values()) {
      const env = s.template.toJSON().Resources[logicalId(f.fn)].Properties.Environment.Variables;
      expect(env).toMatchObject({ SELLER_NAME: 'Snag Software GmbH', SELLER_VAT_ID: 'DE136695976' });
      expect(env).not.toHaveProperty('SELLER_ADDRESS');
    }
  });

  it('fails without the front-end build, rather than deploying a stack with no dashboard', () => {
    expect(() =>
      buildApp({
        stage: 'prod',
        webDist: 'does-not-exist/web',
        widgetDist: 'does-not-exist/widget',
        'aws:cdk:bundling-stacks': [],
      }),
    ).toThrow(/npm run build/);
  });

  it('puts a web ACL with per-IP rate rules in front of CloudFront, from us-east-1', () => {
    expect(s.edge?.region).toBe('us-east-1');
    const edge = s.edgeTemplate!;
    const acl = Object.values(edge.findResources('AWS::WAFv2::WebACL'))[0]!.Properties;
    expect(acl.Scope).toBe('CLOUDFRONT');
    expect(acl.DefaultAction).toEqual({ Allow: {} });
    const rules = acl.Rules as {
      Name: string;
      Action?: unknown;
      Statement: { RateBasedStatement: { ScopeDownStatement: unknown } };
    }[];
    for (const rule of edgeRateRules) {
      const r = rules.find((x) => x.Name === rule.name)!;
      expect(r.Action).toEqual({ Block: {} });
      const rate = r.Statement.RateBasedStatement;
      expect(rate).toMatchObject({ Limit: rule.limit, AggregateKeyType: 'IP', EvaluationWindowSec: 300 });
      const matches = JSON.stringify(rate.ScopeDownStatement);
      for (const [, path] of rule.paths) expect(matches).toContain(path);
      expect(matches).toContain('"SearchString":"POST"');
    }
    expect(rules.map((r) => r.Name)).toContain('AmazonIpReputation');
    edge.hasResourceProperties('AWS::SSM::Parameter', { Name: edgeAclParameter('prod') });
    // The distribution takes the ARN read from that parameter at deploy time.
    const distribution = Object.values(s.template.findResources('AWS::CloudFront::Distribution'))[0]!;
    expect(JSON.stringify(distribution.Properties.DistributionConfig.WebACLId)).toContain('Parameter.Value');
    expect(s.stack.dependencies.map((d) => d.stackName)).toContain(s.edge!.stackName);
    expect(acknowledgements(s.stack.web.distribution).map((a) => a.id)).not.toContain('AwsSolutions-CFR2');
  });

  it('attaches an ACL of your own instead, or none with waf=off', () => {
    const arn = 'arn:aws:wafv2:us-east-1:123456789012:global/webacl/mine/0000';
    const own = buildApp({ stage: 'prod', ...fakeBuild(), wafAclArn: arn, 'aws:cdk:bundling-stacks': [] });
    expect(own.edge).toBeUndefined();
    const off = buildApp({ stage: 'prod', ...fakeBuild(), waf: 'off', 'aws:cdk:bundling-stacks': [] });
    expect(off.edge).toBeUndefined();
    expect(() => buildApp({ waf: 'maybe' })).toThrow(/waf/);
    expect(() => buildApp({ wafAclArn: 'arn:aws:wafv2:eu-central-1:1:regional/webacl/x/1' })).toThrow(
      /wafAclArn/,
    );
  });

  it('leaves nothing unacknowledged (the CFR4 acknowledgement is not needed with a custom domain)', () => {
    expect(s.violations, JSON.stringify(s.violations, null, 1)).toEqual([]);
  });

  it('rejects incomplete or wrong context', () => {
    expect(() => buildApp({ stage: 'staging' })).toThrow(/stage/);
    expect(() => buildApp({ edgeSecretGeneration: '0' })).toThrow(/edgeSecretGeneration/);
    expect(() => buildApp({ stage: 'prod', domainName })).toThrow(/certificateArn/);
    expect(() =>
      buildApp({ domainName, certificateArn: 'arn:aws:acm:eu-central-1:123456789012:certificate/x' }),
    ).toThrow(/us-east-1/);
  });
});
