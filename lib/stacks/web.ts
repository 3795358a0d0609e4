/**
 * The web tier: one CloudFront distribution, one origin for the browser (DESIGN.md section 2).
 *   /          dashboard SPA from S3; extension-less paths are rewritten to /index.html (client routes)
 *   /api/website/{id}/code  the widget loader, fetched on every page view of every customer site: cached
 *              60 s, keyed by its path (the project id) alone, nothing of the viewer forwarded
 *   /api/*     the HTTP API, never cached; cookies, query strings, the headers it reads and the visitor's
 *              address forwarded, and the edge secret added (the API refuses requests without it)
 * The dashboard carries a strict Content-Security-Policy (lib/web-headers.ts); with WAF on, the web ACL
 * of lib/stacks/edge-acl.ts rate-limits per IP in front of everything.
 * The SPA rewrite is a CloudFront Function on the default behaviour only, not distribution-wide error
 * responses, which would turn the API's own 404s into index.html.
 */

import { existsSync } from 'node:fs';
import { Duration, Stack, Validations } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import {
  AllowedMethods,
  CacheCookieBehavior,
  CacheHeaderBehavior,
  CachePolicy,
  CacheQueryStringBehavior,
  Distribution,
  Function as EdgeFunction,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  HttpVersion,
  OriginProtocolPolicy,
  OriginRequestCookieBehavior,
  OriginRequestHeaderBehavior,
  OriginRequestPolicy,
  OriginRequestQueryStringBehavior,
  PriceClass,
  ResponseHeadersPolicy,
  SecurityPolicyProtocol,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { Bucket, type IBucket, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, CacheControl, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import { EDGE_SECRET_HEADER } from '#runtime/config';
import { fromRoot } from '../paths';
import type { Settings } from '../settings';
import { dashboardCsp } from '../web-headers';
import { privateBucketProps } from './data';
import { EdgeAclReference } from './edge-acl';
import { nagArnRef } from './grants';

/**
 * Viewer-request rewrite for client-side routes: `/projects/12` -> `/index.html`, `/logo.svg` untouched. A
 * replay link's page `/replay/{token}` is a client route though its token holds dots (issues/replay-link.ts).
 */
export const spaFallbackCode = `function handler(event) {
  var req = event.request;
  var uri = req.uri;
  if (uri.indexOf('/api/') === 0 || uri.indexOf('/widget/') === 0) return req;
  var last = uri.substring(uri.lastIndexOf('/') + 1);
  if (last.indexOf('.') === -1 || uri.indexOf('/replay/') === 0) req.uri = '/index.html';
  return req;
}`;

/**
 * Viewer-request rewrite of the reporter's status page (issue 24): `/r/{token}` is served by the API route
 * `/api/reporter/{token}/page`, the rule of functions/contracts/reporter.ts `reporterPagePath`.
 */
export const reporterPageCode = `function handler(event) {
  var req = event.request;
  var m = /^\\/r\\/([^\\/]+)\\/?$/.exec(req.uri);
  if (m) req.uri = '/api/reporter/' + m[1] + '/page';
  return req;
}`;

/** The widget loader's path (functions/projects/manifest.ts), as a CloudFront path pattern. */
export const loaderPath = '/api/website/*/code';
/** What the loader answers with (`cache-control: public, max-age=60`), and what CloudFront keeps. */
export const loaderCacheSeconds = 60;

export interface WebProps {
  settings: Settings;
  api: HttpApi;
  logs: IBucket;
  /** The uploads bucket: downloads redirect to it, so the dashboard's policy allows its origin. */
  uploads: IBucket;
  /** Added to every API request as the `x-snag-edge` origin header (a dynamic reference, never plain text). */
  edgeSecret: string;
}

/**
 * Headers the API reads, and CloudFront's visitor address (`ip:port`), which no managed policy that also
 * leaves out Host forwards; API Gateway needs its own Host.
 */
export const apiForwardedHeaders = [
  'Origin',
  'Referer',
  'Content-Type',
  'User-Agent',
  'CloudFront-Viewer-Address',
  // The reporter's 404 page (issue 24) speaks the visitor's language: it knows no project to take it from.
  'Accept-Language',
] as const;

export class Web extends Construct {
  readonly distribution: Distribution;
  /** https://<custom domain or CloudFront domain>: the dashboard's and the API's origin. */
  readonly origin: string;

  constructor(scope: Construct, id: string, props: WebProps) {
    super(scope, id);
    const { settings } = props;
    const bucket = (name: string, prefix: string) =>
      new Bucket(this, name, {
        ...privateBucketProps(settings),
        objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
        serverAccessLogsBucket: props.logs,
        serverAccessLogsPrefix: prefix,
      });
    const dashboardBucket = bucket('Dashboard', 'dashboard/');
    const widgetBucket = bucket('Widget', 'widget/');

    const spaFallback = new EdgeFunction(this, 'SpaFallback', {
      code: FunctionCode.fromInline(spaFallbackCode),
      runtime: FunctionRuntime.JS_2_0,
      comment: 'Rewrite dashboard client routes to /index.html',
    });

    const stack = Stack.of(this);
    // The API's hostname, without the https:// and stage path that `apiEndpoint` carries.
    const apiDomain = `${props.api.apiId}.execute-api.${stack.region}.${stack.urlSuffix}`;
    const apiOrigin = new HttpOrigin(apiDomain, {
      protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
      customHeaders: { [EDGE_SECRET_HEADER]: props.edgeSecret },
    });
    const reporterPage = new EdgeFunction(this, 'ReporterPage', {
      code: FunctionCode.fromInline(reporterPageCode),
      runtime: FunctionRuntime.JS_2_0,
      comment: 'Reporter status page: /r/{token} -> /api/reporter/{token}/page',
    });
    const apiRequests = new OriginRequestPolicy(this, 'ApiRequests', {
      comment: 'Snag API: cookies, query strings, the headers it reads and the visitor address',
      headerBehavior: OriginRequestHeaderBehavior.allowList(...apiForwardedHeaders),
      cookieBehavior: OriginRequestCookieBehavior.all(),
      queryStringBehavior: OriginRequestQueryStringBehavior.all(),
    });

    // The loader: one cached copy per project for a minute; nothing of the viewer reaches the API.
    const loaderCache = new CachePolicy(this, 'LoaderCache', {
      comment: 'Snag widget loader: 60 s, keyed by path (the project id) only',
      defaultTtl: Duration.seconds(loaderCacheSeconds),
      minTtl: Duration.seconds(0),
      maxTtl: Duration.seconds(loaderCacheSeconds),
      headerBehavior: CacheHeaderBehavior.none(),
      cookieBehavior: CacheCookieBehavior.none(),
      queryStringBehavior: CacheQueryStringBehavior.none(),
      enableAcceptEncodingGzip: true,
      enableAcceptEncodingBrotli: true,
    });
    // The public API (issue 25, docs/api.md): CloudFront forwards `Authorization` only when it is in the
    // cache key, which needs a maximum TTL above 0. Its answers say `no-store` (the OpenAPI document
    // `max-age=300`), so nothing is kept longer than they allow; the key holds the token and the query.
    const apiV1Cache = new CachePolicy(this, 'ApiV1Cache', {
      comment: 'Snag public API: Authorization forwarded; answers are no-store',
      defaultTtl: Duration.seconds(0),
      minTtl: Duration.seconds(0),
      maxTtl: Duration.seconds(1),
      headerBehavior: CacheHeaderBehavior.allowList('Authorization'),
      cookieBehavior: CacheCookieBehavior.none(),
      queryStringBehavior: CacheQueryStringBehavior.all(),
    });
    const dashboardHeaders = new ResponseHeadersPolicy(this, 'DashboardHeaders', {
      comment: 'Snag dashboard: strict CSP and security headers',
      securityHeadersBehavior: {
        contentSecurityPolicy: {
          contentSecurityPolicy: dashboardCsp({
            uploadsOrigin: `https://${props.uploads.bucketRegionalDomainName}`,
            google: !!settings.googleClientId,
          }),
          override: true,
        },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
        referrerPolicy: {
          referrerPolicy: HeadersReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN,
          override: true,
        },
        strictTransportSecurity: {
          accessControlMaxAge: Duration.days(730),
          includeSubdomains: true,
          override: true,
        },
      },
    });
    const webAclId =
      settings.wafAclArn ?? (settings.waf ? new EdgeAclReference(this, 'EdgeAcl', settings).arn : undefined);

    const custom = settings.domainName && settings.certificateArn;
    this.distribution = new Distribution(this, 'Distribution', {
      comment: `Snag ${settings.stage}`,
      defaultRootObject: 'index.html',
      httpVersion: HttpVersion.HTTP2_AND_3,
      priceClass: PriceClass.PRICE_CLASS_100,
      ...(custom
        ? {
            domainNames: [settings.domainName!],
            certificate: Certificate.fromCertificateArn(this, 'Certificate', settings.certificateArn!),
            minimumProtocolVersion: SecurityPolicyProtocol.TLS_V1_2_2021,
          }
        : {}),
      ...(webAclId ? { webAclId } : {}),
      enableLogging: true,
      logBucket: props.logs,
      logFilePrefix: 'cloudfront/',
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(dashboardBucket),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        cachePolicy: CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: dashboardHeaders,
        functionAssociations: [{ function: spaFallback, eventType: FunctionEventType.VIEWER_REQUEST }],
      },
      // In this order: CloudFront takes the first pattern that matches.
      additionalBehaviors: {
        [loaderPath]: {
          origin: apiOrigin,
          viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
          allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
          cachePolicy: loaderCache,
        },
        '/api/v1/*': {
          origin: apiOrigin,
          viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
          allowedMethods: AllowedMethods.ALLOW_ALL,
          cachePolicy: apiV1Cache,
          originRequestPolicy: apiRequests,
        },
        '/api/*': {
          origin: apiOrigin,
          viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
          allowedMethods: AllowedMethods.ALLOW_ALL,
          cachePolicy: CachePolicy.CACHING_DISABLED,
          originRequestPolicy: apiRequests,
        },
        // The reporter's status page (issue 24): the API, never cached, under its public name.
        '/r/*': {
          origin: apiOrigin,
          viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
          allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
          cachePolicy: CachePolicy.CACHING_DISABLED,
          originRequestPolicy: apiRequests,
          functionAssociations: [{ function: reporterPage, eventType: FunctionEventType.VIEWER_REQUEST }],
        },
        '/widget/*': {
          origin: S3BucketOrigin.withOriginAccessControl(widgetBucket),
          viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
          cachePolicy: CachePolicy.CACHING_OPTIMIZED,
          // The loader on customers' sites imports the app bundle cross-origin.
          responseHeadersPolicy: ResponseHeadersPolicy.CORS_ALLOW_ALL_ORIGINS,
        },
      },
    });
    this.origin = custom
      ? `https://${settings.domainName}`
      : `https://${this.distribution.distributionDomainName}`;

    Validations.of(this.distribution).acknowledge({
      id: 'AwsSolutions-CFR1',
      reason: 'No geo restriction: customers embed the widget on sites visited from anywhere.',
    });
    if (!webAclId) {
      Validations.of(this.distribution).acknowledge({
        id: 'AwsSolutions-CFR2',
        reason:
          'WAF is off for this stage (context waf=off, the dev default): routes are throttled per route, public ' +
          'endpoints need proof-of-work and limits are enforced on the server. Prod turns it on by default.',
      });
    }
    if (!custom) {
      Validations.of(this.distribution).acknowledge({
        id: 'AwsSolutions-CFR4',
        reason:
          'Without a custom domain the default *.cloudfront.net certificate is used, whose minimum protocol ' +
          'CloudFront fixes; set context domainName + certificateArn to get TLS 1.2 (2021) as the minimum.',
      });
    }

    this.deploy(settings, dashboardBucket, widgetBucket);
  }

  /**
   * Upload the built front ends when `npm run build` has produced them. A fresh clone has no build and a
   * dev synth must still work there, so a missing directory skips that upload with a warning; a prod synth
   * fails instead, since deploying it would leave customers without a dashboard or widget.
   */
  private deploy(settings: Settings, dashboardBucket: IBucket, widgetBucket: IBucket): void {
    const webDist = fromRoot(settings.webDist);
    const widgetDist = fromRoot(settings.widgetDist);
    const missing = [webDist, widgetDist].filter((d) => !existsSync(d));
    if (missing.length > 0 && settings.stage === 'prod') {
      throw new Error(
        `${missing.join(' and ')} missing: a prod stack deploys the built dashboard and widget. Run \`npm run build\` first.`,
      );
    }
    for (const dir of missing) {
      console.warn(`[snag] ${dir} does not exist (run \`npm run build\`): its files are not deployed.`);
    }
    if (!existsSync(webDist) && !existsSync(widgetDist)) return;

    // All deployments share one handler function (a CDK singleton), hence one log group.
    const logGroup = new LogGroup(this, 'DeploymentLogs', {
      retention: settings.logRetention,
      removalPolicy: settings.removalPolicy,
    });
    const immutable = [
      CacheControl.setPublic(),
      CacheControl.maxAge(Duration.days(365)),
      CacheControl.immutable(),
    ];
    if (existsSync(webDist)) {
      // Hashed assets first, kept across releases so open tabs can still load their chunks ...
      const assets = new BucketDeployment(this, 'DashboardAssets', {
        sources: [Source.asset(webDist)],
        destinationBucket: dashboardBucket,
        exclude: ['*'],
        include: ['assets/*'],
        prune: false,
        cacheControl: immutable,
        logGroup,
      });
      // ... then index.html and the other unhashed files, which browsers must revalidate.
      const pages = new BucketDeployment(this, 'DashboardPages', {
        sources: [Source.asset(webDist)],
        destinationBucket: dashboardBucket,
        exclude: ['assets/*'],
        cacheControl: [CacheControl.noCache()],
        distribution: this.distribution,
        distributionPaths: ['/*'],
        logGroup,
      });
      pages.node.addDependency(assets);
    }
    if (existsSync(widgetDist)) {
      new BucketDeployment(this, 'WidgetBundles', {
        sources: [Source.asset(widgetDist)],
        destinationBucket: widgetBucket,
        destinationKeyPrefix: 'widget/',
        // Loaders cached on customers' pages may still ask for the previous release's bundle.
        prune: false,
        cacheControl: immutable,
        logGroup,
      });
    }
    acknowledgeDeploymentHandler(Stack.of(this), [dashboardBucket, widgetBucket]);
  }
}

/**
 * BucketDeployment's handler is a CDK singleton at stack level whose role and runtime CDK fixes; the
 * findings below are about that generated code, which runs only during deployments.
 */
function acknowledgeDeploymentHandler(stack: Stack, buckets: IBucket[]): void {
  const handler = stack.node.children.find((c) => c.node.id.startsWith('Custom::CDKBucketDeployment'));
  if (!handler) throw new Error('BucketDeployment handler not found; CDK changed its construct id');
  const ack = (id: string, reason: string) => Validations.of(handler).acknowledge({ id, reason });
  ack(
    'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
    'CDK attaches the basic execution policy (write own logs) to the BucketDeployment handler role.',
  );
  const copy = 'BucketDeployment copies the staged asset zip from the CDK assets bucket';
  ack(
    'AwsSolutions-IAM5[Action::s3:GetBucket*]',
    `${copy} and syncs the target bucket (CDK grantRead/grantReadWrite).`,
  );
  ack('AwsSolutions-IAM5[Action::s3:GetObject*]', `${copy} and compares objects in the target bucket.`);
  ack('AwsSolutions-IAM5[Action::s3:List*]', `${copy}; the sync lists the target bucket to prune.`);
  ack(
    'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:s3:::cdk-hnb659fds-assets-<AWS::AccountId>-<AWS::Region>/*]',
    'Asset zips in the CDK bootstrap bucket have content-hash keys known only at deploy time.',
  );
  ack('AwsSolutions-IAM5[Action::s3:Abort*]', 'The sync uploads large files in parts and may abort them.');
  ack('AwsSolutions-IAM5[Action::s3:DeleteObject*]', 'The sync deletes files a release removed (prune).');
  for (const bucket of buckets) {
    ack(
      `AwsSolutions-IAM5[Resource::${nagArnRef(bucket)}/*]`,
      'The sync writes any key of the release into this static-site bucket, which holds nothing else.',
    );
  }
  ack(
    'AwsSolutions-IAM5[Resource::*]',
    'cloudfront:CreateInvalidation/GetInvalidation, which BucketDeployment grants on * to invalidate after upload.',
  );
  ack(
    'AwsSolutions-L1',
    'The BucketDeployment handler runtime (Python) is pinned by aws-cdk-lib, not configurable.',
  );
}
