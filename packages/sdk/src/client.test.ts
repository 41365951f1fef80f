import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getBooks } from './actions/get-books.js';
import { getDepth } from './actions/get-depth.js';
import { getExactInputQuote } from './actions/get-exact-input-quote.js';
import { getHealth } from './actions/get-health.js';
import { getTrades } from './actions/get-trades.js';
import { buildUrl, createClient, type FetchFn } from './client.js';
import { InvalidParameterError, SdkError } from './errors.js';
import { DEVNET_ADDRESS, recordingFetch, startTestServer, type TestServer } from './test-support/server.js';

const { WHBAR } = DEVNET_ADDRESS;

describe('createClient', () => {
  it.each([
    ['http://127.0.0.1:3000', 'http://127.0.0.1:3000'],
    ['http://127.0.0.1:3000/', 'http://127.0.0.1:3000'],
    ['https://API.example.com:443/v3//', 'https://api.example.com/v3'],
    ['http://example.com/order-book/api/', 'http://example.com/order-book/api'],
  ])('normalises the base URL %s', (baseUrl, expected) => {
    expect(createClient({ baseUrl }).baseUrl).toBe(expected);
  });

  it('accepts a URL object', () => {
    expect(createClient({ baseUrl: new URL('http://localhost:8080/x/') }).baseUrl).toBe('http://localhost:8080/x');
  });

  it.each([
    ['a relative path', '/books'],
    ['another scheme', 'ftp://example.com'],
    ['a query', 'http://example.com/?network=testnet'],
    ['a fragment', 'http://example.com/#top'],
    ['nothing', ''],
  ])('refuses a base URL with %s', (_name, baseUrl) => {
    expect(() => createClient({ baseUrl })).toThrow(InvalidParameterError);
  });

  it('refuses a base URL with credentials without repeating them', () => {
    let error: unknown;
    try {
      createClient({ baseUrl: 'https://user:hunter2@example.com' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(InvalidParameterError);
    expect(String((error as Error).message)).not.toContain('hunter2');
  });

  it.each(['', 'two words', 'line\nbreak', 'tab\there'])('refuses the access token %j', (accessToken) => {
    expect(() => createClient({ baseUrl: 'http://localhost', accessToken })).toThrow(
      expect.objectContaining({ parameter: 'accessToken' }),
    );
  });

  it('refuses headers that HTTP cannot carry', () => {
    expect(() => createClient({ baseUrl: 'http://localhost', headers: { 'bad name': 'x' } })).toThrow(InvalidParameterError);
    expect(() => createClient({ baseUrl: 'http://localhost', headers: { 'x-ok': 'a\r\nx-injected: 1' } })).toThrow(
      InvalidParameterError,
    );
  });

  it('keeps headers with lower-case names', () => {
    expect(createClient({ baseUrl: 'http://localhost', headers: { 'X-Trace': 'abc' } }).headers).toEqual({ 'x-trace': 'abc' });
  });

  it('calls the injected fetch without binding it to the client', async () => {
    let self: unknown = 'unset';
    const fetch: FetchFn = function (this: unknown) {
      self = this;
      return Promise.resolve(new Response('{"status":"ok"}', { status: 200 }));
    };
    await getHealth(createClient({ baseUrl: 'http://localhost', fetch }));
    expect(self).toBeUndefined();
  });
});

describe('buildUrl', () => {
  const client = { baseUrl: 'http://h/api' };

  it('percent-encodes every segment and query value and leaves out undefined values', () => {
    expect(buildUrl(client, { path: ['a b', 'c/d', 'é?#'], query: { x: 'a&b=c', y: undefined, z: 5 } })).toBe(
      'http://h/api/a%20b/c%2Fd/%C3%A9%3F%23?x=a%26b%3Dc&z=5',
    );
  });

  it.each(['', '.', '..'])('refuses the path segment %j', (segment) => {
    expect(() => buildUrl(client, { path: ['depth', segment] })).toThrow(SdkError);
  });
});

describe('requests to the real server', () => {
  let api: TestServer;
  let closed: TestServer;
  beforeAll(async () => {
    [api, closed] = await Promise.all([startTestServer(), startTestServer({ OPEN_MARKET_DATA: 'false' })]);
  });
  afterAll(async () => {
    await Promise.all([api.close(), closed.close()]);
  });

  it('sends the access token as a bearer token', async () => {
    const token = await closed.server.services.tokens.issue('0.0.5005');
    const recorder = recordingFetch();
    const client = createClient({ baseUrl: closed.url, accessToken: token, fetch: recorder.fetch });
    expect((await getBooks(client)).total).toBe(4);
    expect(recorder.headers[0]?.get('authorization')).toBe(`Bearer ${token}`);
    expect(recorder.headers[0]?.get('accept')).toBe('application/json');
  });

  it('keeps the path prefix of the base URL', async () => {
    const recorder = recordingFetch();
    const client = createClient({ baseUrl: `${api.url}/prefix/`, fetch: recorder.fetch });
    await expect(getHealth(client)).rejects.toMatchObject({ status: 404, message: 'No route GET /prefix/health' });
    expect(recorder.urls).toEqual([`${api.url}/prefix/health`]);
  });

  describe('hostile inputs are percent-encoded', () => {
    it('keeps a book id with slashes and dots inside one path segment', async () => {
      const recorder = recordingFetch();
      const client = createClient({ baseUrl: api.url, fetch: recorder.fetch });
      await expect(getDepth(client, { orderbookId: '1/../../health' })).rejects.toMatchObject({
        status: 404,
        code: 'ORDERBOOK_NOT_FOUND',
      });
      expect(recorder.urls).toEqual([`${api.url}/depth/1%2F..%2F..%2Fhealth`]);
    });

    it('keeps a book id with a query inside the path segment', async () => {
      const recorder = recordingFetch();
      const client = createClient({ baseUrl: api.url, fetch: recorder.fetch });
      await expect(getTrades(client, { orderbookId: '1?sort=bogus' })).rejects.toMatchObject({
        status: 404,
        code: 'ORDERBOOK_NOT_FOUND',
      });
      expect(recorder.urls).toEqual([`${api.url}/trades/1%3Fsort%3Dbogus`]);
    });

    it('does not let a percent-encoded dot segment through as one', async () => {
      const recorder = recordingFetch();
      const client = createClient({ baseUrl: api.url, fetch: recorder.fetch });
      await expect(getDepth(client, { orderbookId: '%2e%2e' })).rejects.toMatchObject({ code: 'ORDERBOOK_NOT_FOUND' });
      expect(recorder.urls).toEqual([`${api.url}/depth/%252e%252e`]);
    });

    it.each(['.', '..', ''])('refuses the book id %j before sending', async (orderbookId) => {
      const recorder = recordingFetch();
      const client = createClient({ baseUrl: api.url, fetch: recorder.fetch });
      await expect(getDepth(client, { orderbookId })).rejects.toBeInstanceOf(InvalidParameterError);
      expect(recorder.urls).toEqual([]);
    });

    it('keeps a token with & and = inside its own query value', async () => {
      const recorder = recordingFetch();
      const client = createClient({ baseUrl: api.url, fetch: recorder.fetch });
      const inputToken = `${WHBAR}&inputAmount=1`;
      await expect(getExactInputQuote(client, { orderbookId: 1, inputToken, inputAmount: 305_000_000n })).rejects.toMatchObject({
        status: 400,
        code: 'TOKEN_NOT_IN_BOOK',
      });
      expect(recorder.urls).toEqual([
        `${api.url}/books/1/quote/exact-input?inputToken=${WHBAR}%26inputAmount%3D1&inputAmount=305000000`,
      ]);
    });

    it('encodes spaces, # and non-ASCII in a query value', async () => {
      const recorder = recordingFetch();
      const client = createClient({ baseUrl: api.url, fetch: recorder.fetch });
      await expect(getExactInputQuote(client, { orderbookId: 1, inputToken: ' é#x', inputAmount: '1' })).rejects.toMatchObject({
        code: 'TOKEN_NOT_IN_BOOK',
      });
      expect(recorder.urls[0]).toBe(`${api.url}/books/1/quote/exact-input?inputToken=%20%C3%A9%23x&inputAmount=1`);
    });
  });
});
