import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { Writable } from 'node:stream';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { redactUrl } from '../edges/redact-url.js';
import { type Harness, startHarness } from '../test-support/harness.js';
import { StreamClient, streamUrl, UpgradeRefused } from '../test-support/stream-client.js';
import { createLogger } from './logging.js';

const SECRET_NAMES = ['token', 'access_token', 'api_key', 'apiKey'] as const;
const JWT_LIKE = /eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/;
/** A JWT-shaped string built at run time, so no token sits in the repository. */
const SAMPLE_JWT = [{ alg: 'HS256' }, { sub: '0.0.5' }, 'signature-of-a-test']
  .map((part) => Buffer.from(typeof part === 'string' ? part : JSON.stringify(part)).toString('base64url'))
  .join('.');

/** Characters of JWTs, API keys and ordinary values: nothing that needs escaping in a query. */
const valueChar = fc.constantFrom(...'ABCXYZabcxyz0189._-~');
const value = fc.string({ unit: valueChar, maxLength: 24 });
const plainKey = fc
  .string({ unit: fc.constantFrom(...'abcdeiknopstuy_K'), minLength: 1, maxLength: 12 })
  .filter((key) => !SECRET_NAMES.some((name) => name.toLowerCase() === key.toLowerCase()));

describe('redactUrl', () => {
  it.each(SECRET_NAMES)('replaces the value of %s', (name) => {
    expect(redactUrl(`/stream?${name}=${SAMPLE_JWT}`)).toBe(`/stream?${name}=[redacted]`);
  });

  it('redacts in any position and keeps every other parameter', () => {
    expect(redactUrl(`/trades/1?sort=asc&token=${SAMPLE_JWT}&limit=5`)).toBe('/trades/1?sort=asc&token=[redacted]&limit=5');
    expect(redactUrl(`/trades/1?sort=asc&limit=5&apiKey=k-1`)).toBe('/trades/1?sort=asc&limit=5&apiKey=[redacted]');
  });

  it('redacts repeated parameters', () => {
    expect(redactUrl('/ws?token=a&token=b&api_key=c&token=d')).toBe(
      '/ws?token=[redacted]&token=[redacted]&api_key=[redacted]&token=[redacted]',
    );
  });

  it('redacts parameter names in any letter case', () => {
    expect(redactUrl('/ws?TOKEN=a&Access_Token=b&API_KEY=c&apikey=d')).toBe(
      '/ws?TOKEN=[redacted]&Access_Token=[redacted]&API_KEY=[redacted]&apikey=[redacted]',
    );
  });

  it('redacts an empty value and stops at a fragment', () => {
    expect(redactUrl('/ws?token=&page=1')).toBe('/ws?token=[redacted]&page=1');
    expect(redactUrl('/ws?token=abc#top')).toBe('/ws?token=[redacted]#top');
  });

  it('replaces a JWT or an API key wherever it stands, also written with escapes', () => {
    const key = '0F3C2B1A-9D8E-4F7A-8B6C-5D4E3F2A1B0C';
    expect(redactUrl(`/ws/user-events/${SAMPLE_JWT}`)).toBe('/ws/user-events/[redacted]');
    expect(redactUrl(`/books?page=1#${SAMPLE_JWT}`)).toBe('/books?page=1#[redacted]');
    expect(redactUrl(`/books?token%3D${SAMPLE_JWT}`)).toBe('/books?token%3D[redacted]');
    expect(redactUrl(`/data/tokens/${key.toLowerCase()}?x-api-key=${key}`)).toBe('/data/tokens/[redacted]?x-api-key=[redacted]');
    expect(redactUrl(`/x/%65%79J${SAMPLE_JWT.slice(3)}`)).toBe('/x/[redacted]');
  });

  it.each([
    '/books',
    '/books?page=2&limit=10',
    '/ws?mytoken=a&tokens=b&token_type=c&apiKeyId=d&x_api_key2=e',
    '/token=abc',
    '/books?page=token=abc',
  ])('leaves %s unchanged', (url) => {
    expect(redactUrl(url)).toBe(url);
  });

  it('redacts exactly the secret parameters of any query, in any case and order', () => {
    const param = fc.oneof(
      fc.record({ key: fc.mixedCase(fc.constantFrom(...SECRET_NAMES)), value, secret: fc.constant(true) }),
      fc.record({ key: plainKey, value, secret: fc.constant(false) }),
    );
    fc.assert(
      fc.property(fc.array(param, { minLength: 1, maxLength: 8 }), (params) => {
        const url = `/ws?${params.map(({ key, value }) => `${key}=${value}`).join('&')}`;
        const redacted = redactUrl(url);
        const expected = `/ws?${params.map(({ key, value, secret }) => `${key}=${secret ? '[redacted]' : value}`).join('&')}`;
        expect(redacted).toBe(expected);
        // A public parameter may carry the same value; only a secret value no public one shares must vanish.
        const publicValues = new Set(params.filter((param) => !param.secret).map((param) => param.value));
        for (const { value, secret } of params) {
          if (secret && value.length >= 3 && !publicValues.has(value)) expect(redacted).not.toContain(`=${value}`);
        }
      }),
    );
  });

  it('changes nothing in a query without secret parameters', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(plainKey, value), { maxLength: 8 }), (params) => {
        const url = `/books?${params.map(([key, value]) => `${key}=${value}`).join('&')}`;
        expect(redactUrl(url)).toBe(url);
      }),
    );
  });

  // Every URL parser (Fastify's and WHATWG URLSearchParams alike) percent-decodes query keys, so
  // `%74oken` IS the `token` parameter and must be redacted like it.
  it('redacts a secret parameter whose name is percent-encoded', () => {
    const url = `/ws?%74oken=${SAMPLE_JWT}&access%5Ftoken=${SAMPLE_JWT}`;
    const query = new URLSearchParams(url.slice(url.indexOf('?') + 1));
    expect(query.get('token')).toBe(SAMPLE_JWT);
    expect(query.get('access_token')).toBe(SAMPLE_JWT);
    expect(redactUrl(url)).not.toMatch(JWT_LIKE);
  });
});

/** A logger writing into an array of parsed lines. */
function capture(): { logger: ReturnType<typeof createLogger>; text: () => string } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { logger: createLogger('info', sink), text: () => lines.join('') };
}

describe('createLogger', () => {
  it('censors authorization and x-api-key headers and nested token and jwt fields', () => {
    const { logger, text } = capture();
    logger.info({ headers: { authorization: `Bearer ${SAMPLE_JWT}`, 'x-api-key': 'k-secret-1' } }, 'headers');
    logger.info({ socket: { token: SAMPLE_JWT, jwt: SAMPLE_JWT, id: 7 } }, 'socket');
    const logs = text();
    expect(logs).not.toMatch(JWT_LIKE);
    expect(logs).not.toContain('k-secret');
    expect(logs).toContain('"id":7');
    expect(logs.match(/\[redacted\]/g)).toHaveLength(4);
  });

  it('writes structured JSON lines with the service name and a level', () => {
    const { logger, text } = capture();
    logger.info({ bookId: 3 }, 'hello');
    logger.debug('hidden at info');
    const lines = text().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({ level: 30, service: 'dex-exchange', bookId: 3, msg: 'hello' });
  });

  // pino's `*.token` matches one level below the root only; a top-level field (the most natural
  // `log.info({ token }, ...)`) needs its own path.
  it('censors token and jwt fields at the top level of a log object', () => {
    const { logger, text } = capture();
    logger.info({ token: SAMPLE_JWT, jwt: SAMPLE_JWT }, 'top level');
    expect(text()).not.toMatch(JWT_LIKE);
  });
});

describe('request logs through the real app', () => {
  let harness: Harness;

  // At debug every request is logged, the successful ones included.
  beforeEach(async () => {
    harness = await startHarness({ LOG_LEVEL: 'debug' });
  });
  afterEach(async () => {
    await harness.close();
  });

  it('never contains a JWT or an API key but does log the redacted URLs', async () => {
    const jwt = await harness.services.tokens.issue('0.0.5');
    expect(jwt).toMatch(JWT_LIKE);
    const apiKey = 'dex_live_4f1c2e9a7b3d8e6f0a5c1b2d';
    const requests = [
      { url: '/books', headers: { authorization: `Bearer ${jwt}`, 'x-api-key': apiKey } },
      { url: `/books?token=${jwt}&page=1`, headers: {} },
      { url: `/trades/1?sort=asc&access_token=${jwt}`, headers: { 'x-api-key': apiKey } },
      { url: `/trades/1?sort=bad&TOKEN=${jwt}`, headers: { authorization: `Bearer ${jwt}` } },
      { url: `/no/such/route?apiKey=${apiKey}&token=${jwt}`, headers: { authorization: `Bearer ${jwt}x` } },
      { url: '/depth/1', headers: { authorization: `Bearer ${jwt}`, 'x-api-key': apiKey } },
    ];
    const statuses: number[] = [];
    for (const request of requests) {
      const response = await harness.app.inject({ method: 'GET', url: request.url, headers: request.headers });
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 400, 404, 200]);

    const logs = harness.logs();
    expect(logs).not.toMatch(JWT_LIKE);
    expect(logs).not.toContain(jwt.split('.')[2]);
    expect(logs).not.toContain(apiKey);
    expect(logs).toContain('"url":"/books"');
    expect(logs).toContain('"url":"/books?token=[redacted]&page=1"');
    expect(logs).toContain('"url":"/trades/1?sort=asc&access_token=[redacted]"');
    expect(logs).toContain('"url":"/trades/1?sort=bad&TOKEN=[redacted]"');
    expect(logs).toContain('"url":"/no/such/route?apiKey=[redacted]&token=[redacted]"');
    expect(logs).toContain('"url":"/depth/1"');
  });

  it('keeps secrets out of the logs of a 401 when open market data is off', async () => {
    await harness.close();
    harness = await startHarness({ LOG_LEVEL: 'debug', OPEN_MARKET_DATA: 'false' });
    const clock = harness.clock;
    const jwt = await harness.services.tokens.issue('0.0.5');
    clock.advance((harness.config.jwtTtlSeconds + 60) * 1000);
    const response = await harness.app.inject({
      method: 'GET',
      url: `/books?token=${jwt}`,
      headers: { authorization: `Bearer ${jwt}`, 'x-api-key': 'k-expired-caller' },
    });
    expect(response.statusCode).toBe(401);
    const logs = harness.logs();
    expect(logs).toContain('INVALID_TOKEN');
    expect(logs).not.toMatch(JWT_LIKE);
    expect(logs).not.toContain('k-expired-caller');
  });

  // See redactUrl above: `%74oken` reaches the app as `token`, so its JWT must not reach the log.
  it('keeps a JWT out of the logs when the token parameter name is percent-encoded', async () => {
    const jwt = await harness.services.tokens.issue('0.0.5');
    const response = await harness.app.inject({ method: 'GET', url: `/books?%74oken=${jwt}` });
    expect(response.statusCode).toBe(200);
    expect(harness.logs()).not.toMatch(JWT_LIKE);
  });
});

/** Sends `head` (a request line and headers) on a raw socket and reads the answer's status line. */
async function rawRequest(url: string, head: string): Promise<string> {
  const { port, hostname } = new URL(url);
  const socket = connect(Number(port), hostname);
  socket.write(`${head}\r\nHost: ${hostname}\r\nConnection: close\r\n\r\n`);
  const chunks: Buffer[] = [];
  for await (const chunk of socket) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').split('\r\n')[0] ?? '';
}

describe('credentials a client puts in the wrong place', () => {
  let harness: Harness;
  beforeEach(async () => {
    harness = await startHarness({ LOG_LEVEL: 'debug' }, { listen: true });
  });
  afterEach(async () => {
    await harness.close();
  });

  it('never reach the log, in a query, a path, a fragment, a stream parameter, a request id or with escapes', async () => {
    const jwt = await harness.services.tokens.issue('0.0.5');
    const apiKey = randomUUID().toUpperCase();
    const escaped = [...jwt].map((char) => `%${char.charCodeAt(0).toString(16)}`).join('');
    const requests = [
      `GET /books?x-api-key=${apiKey} HTTP/1.1`,
      `GET /books?jwt=${jwt} HTTP/1.1`,
      `GET /books?token%3D${jwt} HTTP/1.1`,
      `GET /books?page=1&${apiKey}=1 HTTP/1.1`,
      `GET /ws/user-events/${jwt} HTTP/1.1`,
      `GET /books/${apiKey} HTTP/1.1`,
      `GET /books#${jwt} HTTP/1.1`,
      `GET /depth/${escaped} HTTP/1.1`,
      `GET /books HTTP/1.1\r\nX-Request-Id: ${jwt}`,
    ];
    for (const head of requests) expect(await rawRequest(harness.url, head)).toMatch(/^HTTP\/1\.1 [2-4]\d\d /);
    for (const query of [`books=${jwt}&token=${jwt}`, `token=${jwt}&books=${apiKey}`]) {
      await StreamClient.open(streamUrl(harness.url, 'depth', {}).replace(/\?.*$/, `?${query}`)).then(
        (client) => client.close(),
        (error: unknown) => expect(error).toBeInstanceOf(UpgradeRefused),
      );
    }
    await StreamClient.open(`${streamUrl(harness.url, 'user-events', {})}/${jwt}`).catch(() => {});
    const logs = harness.logs();
    expect(logs).toContain('[redacted]');
    expect(logs).not.toMatch(JWT_LIKE);
    expect(logs).not.toContain(jwt.split('.')[2]);
    expect(logs.toLowerCase()).not.toContain(apiKey.toLowerCase());
  });
});

/** The request lines of a log, parsed. */
function requestLines(logs: string): { level: number; statusCode: number; responseTimeMs: number; req: { url: string } }[] {
  return logs
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line))
    .filter((line) => line.msg === 'request answered');
}

describe('request log levels', () => {
  const harnesses: Harness[] = [];
  afterEach(async () => {
    await Promise.all(harnesses.splice(0).map((harness) => harness.close()));
  });

  it('writes one line per request at info only for failures, and every request at debug', async () => {
    const quiet = await startHarness({ LOG_LEVEL: 'info' });
    const verbose = await startHarness({ LOG_LEVEL: 'debug' });
    harnesses.push(quiet, verbose);
    for (const host of [quiet, verbose]) {
      for (let request = 0; request < 5; request++) expect((await host.app.inject({ url: '/books' })).statusCode).toBe(200);
      expect((await host.app.inject({ url: '/depth/999' })).statusCode).toBe(404);
    }

    expect((await quiet.app.inject({ url: '/no/such/route' })).statusCode).toBe(404);
    const failures = requestLines(quiet.logs());
    expect(failures).toMatchObject([
      { level: 30, statusCode: 404, req: { url: '/depth/999' } },
      { level: 30, statusCode: 404, req: { url: '/no/such/route' } },
    ]);
    // Nothing else about those requests: one line each.
    expect(quiet.logs().match(/"reqId"/g)).toHaveLength(2);
    const all = requestLines(verbose.logs());
    expect(all.map((line) => [line.level, line.statusCode])).toEqual([...Array(5).fill([20, 200]), [30, 404]]);
    for (const line of all) expect(line.responseTimeMs).toBeGreaterThanOrEqual(0);
  });

  it('logs a request at info when it takes SLOW_REQUEST_MS or longer', async () => {
    const host = await startHarness({ LOG_LEVEL: 'info', SLOW_REQUEST_MS: '0' });
    harnesses.push(host);
    expect((await host.app.inject({ url: '/books' })).statusCode).toBe(200);
    expect(requestLines(host.logs())).toMatchObject([{ level: 30, statusCode: 200, req: { url: '/books' } }]);
  });
});
