/** Writing replies on node:http, shared by the gateway and the static files. */
import type { ServerResponse } from 'node:http';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { toHttpReply } from './api-result';

export function send(
  res: ServerResponse,
  statusCode: number,
  headers: Record<string, string | string[]>,
  body: Buffer | string,
  headOnly = false,
) {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  res.writeHead(statusCode, { ...headers, 'content-length': String(bytes.length) });
  res.end(headOnly ? undefined : bytes);
}

/** Sends a Lambda-shaped result, e.g. an `errorResponse(…)` envelope. */
export function sendResult(res: ServerResponse, result: APIGatewayProxyStructuredResultV2, extra = {}) {
  const reply = toHttpReply(result);
  send(res, reply.statusCode, { ...reply.headers, ...extra }, reply.body);
}
