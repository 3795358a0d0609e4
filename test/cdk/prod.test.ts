/**
 * The prod stage with a custom domain and no front-end build: data is retained, the custom domain is the
 * app's origin, and synth still passes without dist/. Bundling is skipped (the dev file covers it).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../lib/app';
import { logicalId, type Synthesized, synth } from './synth';

const domainName = 'app.snag.example.com';
const certificateArn = 'arn:aws:acm:us-east-1:123456789012:certificate/00000000-0000-0000-0000-000000000000';
let s: Synthesized;

beforeAll(() => {
  s = synth({
    stage: 'prod',
    domainName,
    certificateArn,
    webDist: 'does-not-exist/web',
    widgetDist: 'does-not-exist/widget',
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

  it('synthesizes without a front-end build, deploying no assets', () => {
    s.template.resourceCountIs('Custom::CDKBucketDeployment', 0);
  });

  it('leaves nothing unacknowledged (the CFR4 acknowledgement is not needed with a custom domain)', () => {
    expect(s.violations).toEqual([]);
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
