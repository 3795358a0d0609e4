/**
 * The local API Gateway: serves /api/* from the route table (functions/routes.ts, at the roof) by calling the
 * same handler exports Lambda calls, with payload-format-2.0 events. Its own refusals (unknown path, wrong
 * method, body too large, not ready, handler crash) use the API's error envelope.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { routeKey } from '#contracts/routes';
import { errorResponse } from '#runtime/http';
import { matchRoute } from '../../functions/routes';
import { buildApiEvent } from './api-event';
import { toHttpReply } from './api-result';
import { compressedApiPaths, compressReply } from './compress';
import { type ApiHandler, lambdaContext } from './functions';
import { send, sendResult } from './http-reply';
import { asFunction } from './invocation';
import type { StackLog } from './log';

/** API Gateway's payload limit; larger requests are refused without reading further. */
export const maxRequestBytes = 10 * 1024 * 1024;

export interface GatewayOptions {
  /** False until every stand-in is up and the environment is set, and while one is restarting. */
  isReady: () => boolean;
  load: (resource: string) => Promise<ApiHandler>;
  log: StackLog;
}

type BodyRead = { body: Buffer } | { tooLarge: true };

/** Reads the body up to the cap; past it, stops keeping bytes and says so at once. */
function readBody(req: IncomingMessage, limit: number): Promise<BodyRead> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) return Promise.resolve({ tooLarge: true });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) {
        chunks.push(chunk);
        return;
      }
      req.off('data', onData);
      req.off('end', onEnd);
      // Keep draining (and dropping) so the client reads the answer instead of a reset connection.
      req.resume();
      resolve({ tooLarge: true });
    };
    const onEnd = () => resolve({ body: Buffer.concat(chunks) });
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('error', reject);
  });
}

/** Answers 413 and closes the connection once the answer is out, so an endless upload cannot go on. */
function refuseTooLarge(req: IncomingMessage, res: ServerResponse) {
  req.resume();
  res.once('finish', () => setTimeout(() => req.socket.destroy(), 1000).unref());
  sendResult(res, errorResponse('PAYLOAD_TOO_LARGE'), { connection: 'close' });
}

/**
 * CloudFront's `CloudFront-Viewer-Address` (`ip:port`, IPv6 unbracketed), set from the connection unless
 * the request brings its own, so tests can act as many visitors.
 */
export function withViewerAddress(
  headers: Record<string, string[] | undefined>,
  ip: string,
  port: number,
): Record<string, string[] | undefined> {
  if (headers['cloudfront-viewer-address']?.length) return headers;
  return { ...headers, 'cloudfront-viewer-address': [`${ip}:${port}`] };
}

export function createGateway(opts: GatewayOptions) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const method = (req.method ?? 'GET').toUpperCase();
    const url = req.url ?? '/';
    const path = url.split('?')[0] ?? '/';
    if (!opts.isReady()) {
      req.resume();
      sendResult(res, errorResponse('NOT_READY'));
      return;
    }
    const match = matchRoute(method, path);
    if (!('route' in match)) {
      req.resume();
      sendResult(res, errorResponse(match.methodMismatch ? 'METHOD_NOT_ALLOWED' : 'NOT_FOUND'));
      return;
    }
    const read = await readBody(req, maxRequestBytes);
    if ('tooLarge' in read) {
      refuseTooLarge(req, res);
      return;
    }
    const key = routeKey(match.route);
    const sourceIp = (req.socket.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
    const event = buildApiEvent(
      {
        method,
        url,
        headers: withViewerAddress(req.headersDistinct, sourceIp, req.socket.remotePort ?? 0),
        body: read.body,
        sourceIp,
        protocol: `HTTP/${req.httpVersion}`,
      },
      { routeKey: key, pathParameters: match.params },
    );
    try {
      const handler = await opts.load(match.route.resource);
      const result = await asFunction(`api:${match.route.resource}`, () =>
        handler(event, lambdaContext(`snag-${match.route.resource}`, event.requestContext.requestId)),
      );
      // A call that failed because a stand-in went down under it (DynamoDB Local's JVM died) is "not
      // ready, try again", as every call is until it is back, rather than a fault of the handler.
      let reply = toHttpReply(result);
      if (reply.statusCode >= 500 && !opts.isReady()) {
        sendResult(res, errorResponse('NOT_READY'));
        return;
      }
      // The loader's CloudFront behaviour compresses; the rest of the API goes out as the function answered.
      if (compressedApiPaths.includes(match.route.path)) {
        reply = compressReply(reply, {
          acceptEncoding: req.headers['accept-encoding'],
          httpVersion: req.httpVersion,
        });
      }
      send(res, reply.statusCode, reply.headers, reply.body, method === 'HEAD');
    } catch (err) {
      // In AWS a crashed Lambda is a bare 500; here it is the envelope, and the stack says why.
      opts.log.error(`${key} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      sendResult(res, errorResponse('SYSTEM_ERROR'));
    }
  };
}
