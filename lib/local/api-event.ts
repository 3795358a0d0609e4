/**
 * HTTP request → API Gateway HTTP API (payload format 2.0) event, as AWS builds it, so handlers see locally
 * exactly what they see in Lambda.
 */
import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';

export interface RawRequest {
  method: string;
  /** Path and query as received, e.g. `/api/x?a=1`. */
  url: string;
  /** Header name → every value received (Node's `headersDistinct`). */
  headers: Record<string, string[] | undefined>;
  body: Buffer;
  sourceIp: string;
  protocol?: string;
}

export interface EventRoute {
  /** `GET /api/project/{id}` */
  routeKey: string;
  pathParameters: Record<string, string>;
}

/** Bodies API Gateway passes as text; everything else arrives base64-encoded with isBase64Encoded. */
export function isTextContent(contentType: string | undefined): boolean {
  if (!contentType) return true;
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  return (
    type.startsWith('text/') ||
    /^application\/(json|xml|javascript|x-www-form-urlencoded|graphql)$/.test(type) ||
    /\+(json|xml)$/.test(type)
  );
}

/** Decodes a query component as API Gateway does: `+` is a space, bad escapes stay as they are. */
function decodeComponent(s: string): string {
  const spaced = s.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

/** Query parameters with repeated keys joined by commas, as in payload format 2.0. */
export function parseQuery(raw: string): Record<string, string> | undefined {
  if (!raw) return undefined;
  const out: Record<string, string> = {};
  for (const part of raw.split('&')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    const key = decodeComponent(eq < 0 ? part : part.slice(0, eq));
    const value = eq < 0 ? '' : decodeComponent(part.slice(eq + 1));
    out[key] = key in out ? `${out[key]},${value}` : value;
  }
  return Object.keys(out).length ? out : undefined;
}

export function buildApiEvent(req: RawRequest, route: EventRoute, now = new Date()): APIGatewayProxyEventV2 {
  const q = req.url.indexOf('?');
  const rawPath = q < 0 ? req.url : req.url.slice(0, q);
  const rawQueryString = q < 0 ? '' : req.url.slice(q + 1);

  // Header names lower-cased, repeated headers comma-joined; cookies move to their own array.
  const headers: Record<string, string> = {};
  let cookies: string[] | undefined;
  for (const [name, values] of Object.entries(req.headers)) {
    if (!values?.length) continue;
    const key = name.toLowerCase();
    if (key === 'cookie') {
      cookies = values
        .flatMap((v) => v.split(';'))
        .map((c) => c.trim())
        .filter(Boolean);
      continue;
    }
    headers[key] = values.join(',');
  }

  const text = isTextContent(headers['content-type']);
  const hasBody = req.body.length > 0;
  const requestId = randomUUID();
  const event: APIGatewayProxyEventV2 = {
    version: '2.0',
    routeKey: route.routeKey,
    rawPath,
    rawQueryString,
    ...(cookies?.length ? { cookies } : {}),
    headers,
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      domainName: headers.host?.split(':')[0] ?? 'localhost',
      domainPrefix: 'localhost',
      http: {
        method: req.method,
        path: rawPath,
        protocol: req.protocol ?? 'HTTP/1.1',
        sourceIp: req.sourceIp,
        userAgent: headers['user-agent'] ?? '',
      },
      requestId,
      routeKey: route.routeKey,
      stage: '$default',
      time: apiGatewayTime(now),
      timeEpoch: now.getTime(),
    },
    isBase64Encoded: hasBody && !text,
  };
  const query = parseQuery(rawQueryString);
  if (query) event.queryStringParameters = query;
  if (Object.keys(route.pathParameters).length) event.pathParameters = route.pathParameters;
  if (hasBody) event.body = text ? req.body.toString('utf8') : req.body.toString('base64');
  return event;
}

const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number) => String(n).padStart(2, '0');

/** `21/Nov/2025:06:04:05 +0000`, the format of requestContext.time. */
export function apiGatewayTime(d: Date): string {
  return `${pad(d.getUTCDate())}/${months[d.getUTCMonth()]}/${d.getUTCFullYear()}:${pad(d.getUTCHours())}:${pad(
    d.getUTCMinutes(),
  )}:${pad(d.getUTCSeconds())} +0000`;
}
