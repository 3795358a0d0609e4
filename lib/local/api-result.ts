/**
 * Lambda result → HTTP response, following API Gateway's payload format 2.0, including its inference for
 * results that are not `{ statusCode, … }`.
 */
import type { APIGatewayProxyResultV2 } from 'aws-lambda';

export interface HttpReply {
  statusCode: number;
  headers: Record<string, string | string[]>;
  body: Buffer;
}

const isStructured = (r: unknown): r is Record<string, unknown> & { statusCode: unknown } =>
  typeof r === 'object' && r !== null && !Array.isArray(r) && 'statusCode' in r;

export function toHttpReply(result: APIGatewayProxyResultV2 | undefined | null): HttpReply {
  // No statusCode: API Gateway answers 200 with the JSON of whatever came back (a string as it is).
  if (!isStructured(result)) {
    const body = typeof result === 'string' ? result : (JSON.stringify(result) ?? '');
    return { statusCode: 200, headers: { 'content-type': 'application/json' }, body: Buffer.from(body) };
  }
  const headers: Record<string, string | string[]> = {};
  const given = (result.headers ?? {}) as Record<string, string | number | boolean>;
  for (const [name, value] of Object.entries(given)) headers[name.toLowerCase()] = String(value);
  const cookies = result.cookies as string[] | undefined;
  if (cookies?.length) headers['set-cookie'] = cookies;
  const raw = typeof result.body === 'string' ? result.body : '';
  const body = result.isBase64Encoded ? Buffer.from(raw, 'base64') : Buffer.from(raw, 'utf8');
  if (!headers['content-type'] && body.length) headers['content-type'] = 'application/json';
  return { statusCode: Number(result.statusCode), headers, body };
}
