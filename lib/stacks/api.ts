/**
 * The HTTP API, built from the route table (functions/shared/routes.ts): one function per resource that
 * has deployed routes, one route per deployed route. The local gateway serves the same table, so no route
 * exists in one runtime and not the other.
 */
import { Duration, Validations } from 'aws-cdk-lib';
import {
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
import { apiFunctions } from '../../functions/manifests';
import { deployedRoutes, type ResourceName, resources, routeKey } from '../../functions/shared/routes';
import { handlerEntry } from '../resources';
import type { Settings } from '../settings';
import { SnagFunction } from './lambda';

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
    new HttpStage(this, 'DefaultStage', {
      httpApi: this.httpApi,
      stageName: '$default',
      autoDeploy: true,
      accessLogSettings: { destination: new LogGroupLogDestination(accessLogs) },
      // A ceiling against runaway clients and cost; per-account limits stay the outer bound.
      throttle: { rateLimit: 200, burstLimit: 400 },
    });

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
        new HttpLambdaIntegration(`${resource}Integration`, fn.fn),
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
