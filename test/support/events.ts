/** Builders of AWS event shapes for unit tests (the local gateway builds the same shapes for real). */
import type { APIGatewayProxyEventV2, Context, SQSEvent, SQSRecord } from 'aws-lambda';

export function httpEvent(
  routeKey: string,
  opts: {
    body?: string;
    headers?: Record<string, string>;
    query?: Record<string, string>;
    params?: Record<string, string>;
    cookies?: string[];
  } = {},
): APIGatewayProxyEventV2 {
  const [method = 'GET', path = '/'] = routeKey.split(' ');
  return {
    version: '2.0',
    routeKey,
    rawPath: path,
    rawQueryString: new URLSearchParams(opts.query ?? {}).toString(),
    cookies: opts.cookies,
    headers: { host: 'localhost:3000', ...opts.headers },
    queryStringParameters: opts.query,
    pathParameters: opts.params,
    body: opts.body,
    isBase64Encoded: false,
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      domainName: 'localhost',
      domainPrefix: 'localhost',
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'vitest' },
      requestId: 'req-1',
      routeKey,
      stage: '$default',
      time: new Date().toISOString(),
      timeEpoch: Date.now(),
    },
  };
}

export const lambdaContext = { awsRequestId: 'ctx-1', functionName: 'test' } as unknown as Context;

export function sqsEvent(bodies: string[]): SQSEvent {
  const Records = bodies.map(
    (body, i): SQSRecord => ({
      messageId: `m${i}`,
      receiptHandle: `r${i}`,
      body,
      attributes: {
        ApproximateReceiveCount: '1',
        SentTimestamp: String(Date.now()),
        SenderId: 'local',
        ApproximateFirstReceiveTimestamp: String(Date.now()),
      },
      messageAttributes: {},
      md5OfBody: '',
      eventSource: 'aws:sqs',
      eventSourceARN: 'arn:aws:sqs:eu-central-1:000000000000:q',
      awsRegion: 'eu-central-1',
    }),
  );
  return { Records };
}
