import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getBooks } from './actions/get-books.js';
import { getDepth } from './actions/get-depth.js';
import { getExactInputQuote } from './actions/get-exact-input-quote.js';
import { getHealth } from './actions/get-health.js';
import { getSignatureDomain } from './actions/get-signature-domain.js';
import { getTrades } from './actions/get-trades.js';
import { createClient } from './client.js';
import { ApiError, InvalidResponseError, NetworkError, SdkError } from './errors.js';
import { DEVNET_ADDRESS, startRawServer, startTestServer, type TestServer, unusedUrl } from './test-support/server.js';

const { WHBAR } = DEVNET_ADDRESS;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The rejection of a promise that must reject. */
async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail('expected the call to fail'),
    (error: unknown) => error,
  );
}

describe('ApiError from the real server', () => {
  let api: TestServer;
  beforeAll(async () => {
    api = await startTestServer();
  });
  afterAll(async () => {
    await api.close();
  });

  it('carries status, code, message and request id for a 400 (bad sort)', async () => {
    const client = createClient({ baseUrl: api.url });
    const error = await failure(getTrades(client, { orderbookId: 1, sort: 'ASC' as 'asc' }));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toBeInstanceOf(SdkError);
    expect(error).toMatchObject({
      name: 'ApiError',
      status: 400,
      code: 'INVALID_SORT',
      message: 'sort must be asc or desc',
      shortMessage: 'sort must be asc or desc',
      url: `${api.url}/trades/1?sort=ASC`,
    });
    expect((error as ApiError).requestId).toMatch(UUID);
  });

  it('carries status, code, message and request id for a 404 (unknown book)', async () => {
    const client = createClient({ baseUrl: api.url });
    const error = await failure(getDepth(client, { orderbookId: 99 }));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 404, code: 'ORDERBOOK_NOT_FOUND', message: 'Order book not found' });
    expect((error as ApiError).requestId).toMatch(UUID);
  });

  it('reports an unknown book on a quote as the 400 the spec asks for', async () => {
    const client = createClient({ baseUrl: api.url });
    await expect(getExactInputQuote(client, { orderbookId: 77, inputToken: WHBAR, inputAmount: 1n })).rejects.toMatchObject({
      status: 400,
      code: 'UNKNOWN_ORDERBOOK',
      message: 'Unknown order book',
    });
  });

  it('returns the request id the client chose', async () => {
    const client = createClient({ baseUrl: api.url, headers: { 'X-Request-Id': 'sdk-test-42' } });
    await expect(getTrades(client, { orderbookId: 42 })).rejects.toMatchObject({ status: 404, requestId: 'sdk-test-42' });
  });
});

describe('ApiError from a server with open market data switched off', () => {
  let api: TestServer;
  beforeAll(async () => {
    api = await startTestServer({ OPEN_MARKET_DATA: 'false' });
  });
  afterAll(async () => {
    await api.close();
  });

  it.each([
    ['getBooks', getBooks],
    ['getSignatureDomain', getSignatureDomain],
  ] as const)('carries status, code, message and request id for a 401 from %s', async (_name, action) => {
    const error = await failure(action(createClient({ baseUrl: api.url })));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 401, code: 'MISSING_AUTHORIZATION', message: 'Missing Authorization header' });
    expect((error as ApiError).requestId).toMatch(UUID);
  });

  it('reports an invalid access token as a 401 INVALID_TOKEN', async () => {
    const client = createClient({ baseUrl: api.url, accessToken: 'a.b.c' });
    await expect(getDepth(client, { orderbookId: 1 })).rejects.toMatchObject({ status: 401, code: 'INVALID_TOKEN' });
  });

  it('reports the unmounted trade tape as a 404 NOT_FOUND', async () => {
    await expect(getTrades(createClient({ baseUrl: api.url }), { orderbookId: 1 })).rejects.toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
      message: 'No route GET /trades/1',
    });
  });
});

describe('error bodies that are not the API JSON', () => {
  let proxy: { url: string; close(): Promise<void> };
  beforeAll(async () => {
    proxy = await startRawServer((request, response) => {
      switch (request.url) {
        case '/health':
          response.writeHead(502, { 'content-type': 'text/html', 'x-request-id': 'edge-7' });
          response.end('<html>\n  <body>Bad gateway</body>\n</html>');
          return;
        case '/signature/domain':
          response.writeHead(503);
          response.end();
          return;
        case '/books':
          response.writeHead(500, { 'content-type': 'application/json' });
          response.end('{"message":"boom"}');
          return;
        default:
          response.writeHead(200, { 'content-type': 'text/plain', 'x-request-id': 'edge-8' });
          response.end('not json');
      }
    });
  });
  afterAll(async () => {
    await proxy.close();
  });

  it('turns an HTML error page into an ApiError with the status and an excerpt', async () => {
    const error = await failure(getHealth(createClient({ baseUrl: proxy.url })));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 502,
      code: undefined,
      requestId: 'edge-7',
      shortMessage: 'The server answered 502 Bad Gateway without an error message',
      details: 'body: <html> <body>Bad gateway</body> </html>',
    });
    expect((error as ApiError).message).toContain('502 Bad Gateway');
  });

  it('turns an empty error body into an ApiError that says so', async () => {
    const error = await failure(getSignatureDomain(createClient({ baseUrl: proxy.url })));
    expect(error).toMatchObject({
      status: 503,
      code: undefined,
      requestId: undefined,
      message: 'The server answered 503 Service Unavailable without an error message (empty body)',
    });
  });

  it('turns JSON without an error field into an ApiError quoting it', async () => {
    const error = await failure(getBooks(createClient({ baseUrl: proxy.url })));
    expect(error).toMatchObject({ status: 500, code: undefined, details: 'body: {"message":"boom"}' });
  });

  it('refuses a 2xx body that is not JSON with InvalidResponseError', async () => {
    const error = await failure(getDepth(createClient({ baseUrl: proxy.url }), { orderbookId: 1 }));
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error).toMatchObject({ status: 200, requestId: 'edge-8', url: `${proxy.url}/depth/1` });
    expect((error as InvalidResponseError).cause).toBeInstanceOf(SyntaxError);
  });
});

describe('NetworkError', () => {
  it('is thrown with the fetch failure as its cause when nothing listens', async () => {
    const baseUrl = await unusedUrl();
    const error = await failure(getHealth(createClient({ baseUrl })));
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toBeInstanceOf(SdkError);
    expect(error).toMatchObject({ shortMessage: `Could not reach ${baseUrl}`, url: `${baseUrl}/health` });
    expect((error as NetworkError).cause).toBeInstanceOf(Error);
    expect((error as NetworkError).details).toContain('ECONNREFUSED');
  });

  it('is thrown when the server does not answer within timeoutMs', async () => {
    const silent = await startRawServer(() => {});
    try {
      const started = Date.now();
      const error = await failure(getHealth(createClient({ baseUrl: silent.url, timeoutMs: 200 })));
      expect(error).toBeInstanceOf(NetworkError);
      expect((error as NetworkError).details).toMatch(/timeout/i);
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      silent.server.closeAllConnections();
      await silent.close();
    }
  });

  it.each([-1, 1.5, Number.NaN])('refuses the timeout %s', (timeoutMs) => {
    expect(() => createClient({ baseUrl: 'http://localhost', timeoutMs })).toThrow(
      expect.objectContaining({ parameter: 'timeoutMs' }),
    );
  });

  it('is thrown when the injected fetch itself fails', async () => {
    const cause = new Error('offline');
    const client = createClient({ baseUrl: 'http://127.0.0.1:1', fetch: () => Promise.reject(cause) });
    await expect(getHealth(client)).rejects.toMatchObject({ name: 'NetworkError', cause, details: 'offline' });
  });
});
