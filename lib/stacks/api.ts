/**
 * The HTTP API, built from the route table (functions/routes.ts, at the roof): one function per resource that
 * has deployed routes, one route per deployed route. The local gateway serves the same table, so no route
 * exists in one runtime and not the other.
 */
import { Duration, Validations } from 'aws-cdk-lib';
import {
  type CfnStage,
  HttpApi,
  HttpMethod,
  HttpRoute,
  HttpRouteKey,
  HttpStage,
  LogGroupLogDestination,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { type RouteDef, routeKey } from '#contracts/routes';
import { apiFunctions } from '../../functions/manifests';
import { deployedRoutes, type ResourceName, resources } from '../../functions/routes';
import { handlerEntry } from '../resources';
import type { Settings } from '../settings';
import { SnagFunction } from './lambda';

/**
 * Requests per second (steady and burst) each route may take, by who calls it. The loader sits behind
 * CloudFront's cache, so only misses arrive; sign-in, registration and resets are people typing; the
 * intake is visitors of every customer site together; the health probe is a monitor.
 */
export const routeThrottles = {
  loader: { rate: 500, burst: 1000 },
  intake: { rate: 100, burst: 200 },
  account: { rate: 20, burst: 50 },
  dashboard: { rate: 100, burst: 200 },
  probe: { rate: 5, burst: 10 },
} as const;

export function throttleClassOf(route: RouteDef): keyof typeof routeThrottles {
  if (route.resource === 'health') return 'probe';
  if (route.resource === 'widget') return 'loader';
  if (route.caller === 'public') return 'intake';
  return route.session ? 'dashboard' : 'account';
}

/** Resources that serve at least one deployed route, in route-table order. */
export const deployedResources = (): ResourceName[] =>
  resources.filter((r) => deployedRoutes().some((route) => route.resource === r));

export interface ApiProps {
  settings: Settings;
  /** The environment of one function, from what its manifest declares. */
  environmentOf: (resource: ResourceName) => Record<string, string>;
}

export class Api extends Construct {
  readonly httpApi: HttpApi;
  readonly functions: Map<ResourceName, SnagFunction>;

  constructor(scope: Construct, id: string, props: ApiProps) {
    super(scope, id);
    const { settings } = props;
    // No CORS here: the dashboard calls /api on its own origin, and the public widget routes answer
    // CORS themselves for the project's domain only.
    this.httpApi = new HttpApi(this, 'HttpApi', {
      createDefaultStage: false,
      description: `Snag API (${settings.stage})`,
    });

    const accessLogs = new LogGroup(this, 'AccessLogs', {
      retention: settings.logRetention,
      removalPolicy: settings.removalPolicy,
    });
    const stage = new HttpStage(this, 'DefaultStage', {
      httpApi: this.httpApi,
      stageName: '$default',
      autoDeploy: true,
      accessLogSettings: { destination: new LogGroupLogDestination(accessLogs) },
      // Routes without settings of their own (none today); per-account limits stay the outer bound.
      throttle: { rateLimit: routeThrottles.dashboard.rate, burstLimit: routeThrottles.dashboard.burst },
    });
    // Every route its own bucket, sized by who calls it, so a busy customer site cannot use up the
    // dashboard's share (HttpStage has no route settings of its own: the L1 property).
    (stage.node.defaultChild as CfnStage).routeSettings = Object.fromEntries(
      deployedRoutes().map((route) => {
        const t = routeThrottles[throttleClassOf(route)];
        return [routeKey(route), { ThrottlingRateLimit: t.rate, ThrottlingBurstLimit: t.burst }];
      }),
    );

    this.functions = new Map();
    for (const resource of deployedResources()) {
      const { needs } = apiFunctions[resource];
      const fn = new SnagFunction(this, resource, {
        entry: handlerEntry(resource),
        settings,
        environment: props.environmentOf(resource),
        timeout: Duration.seconds(needs.timeoutSeconds ?? 10),
        ...(needs.memoryMb ? { memorySize: needs.memoryMb } : {}),
        description: `Snag API: ${resource}`,
        withWidget: needs.widget === true,
      });
      this.functions.set(resource, fn);
    }
    const integrations = new Map(
      [...this.functions].map(([resource, fn]) => [
        resource,
        // One invoke permission per function for this API, not one per route (CDK's default): 108 routes
        // made 112 permissions, and the stack reached CloudFormation's 500 resources (decision CDK-R1).
        new HttpLambdaIntegration(`${resource}Integration`, fn.fn, { scopePermissionToRoute: false }),
      ]),
    );
    for (const route of deployedRoutes()) {
      // Under the API, so that the acknowledgement below covers every route.
      new HttpRoute(this.httpApi, routeKey(route), {
        httpApi: this.httpApi,
        routeKey: HttpRouteKey.with(route.path, HttpMethod[route.method]),
        integration: integrations.get(route.resource)!,
      });
    }
    Validations.of(this.httpApi).acknowledge({
      id: 'AwsSolutions-APIG4',
      reason:
        'Sessions are HttpOnly cookies checked by each handler (route table `session` flag, 401 envelope); ' +
        'public widget routes are anonymous by design and protected by proof-of-work and plan limits.',
    });
  }
}
