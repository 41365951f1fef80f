import { SELL } from '@dex/core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness, Trader } from '../../test-support/harness.js';
import { JWT_PATTERN, StreamClient, type StreamQuery, streamUrl, UpgradeRefused } from '../../test-support/stream-client.js';
import type { DepthDiffMessage, ServerMessage, WelcomeMessage } from './protocol.js';

/** Short enough to see a silent peer go within a test, long enough that a busy test process still answers in time. */
const HEARTBEAT_MS = 250;
const MAX_PER_IP = 4;
const MAX_PAYLOAD = 1_024;

let harness: Harness;
let trader: Trader;
const clients: StreamClient[] = [];

beforeAll(async () => {
  harness = await startHarness(
    {
      WS_HEARTBEAT_MS: String(HEARTBEAT_MS),
      WS_MAX_CONNECTIONS_PER_IP: String(MAX_PER_IP),
      WS_MAX_BOOKS: '2',
      WS_MAX_PAYLOAD_BYTES: String(MAX_PAYLOAD),
    },
    { listen: true },
  );
  trader = await Trader.secp256k1(harness);
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});
afterAll(async () => {
  await harness.close();
});

async function open(stream: 'depth' | 'user-events', query: StreamQuery): Promise<StreamClient> {
  const client = await StreamClient.open(streamUrl(harness.url, stream, query));
  clients.push(client);
  return client;
}

async function refusal(stream: 'depth' | 'user-events', query: StreamQuery): Promise<UpgradeRefused> {
  try {
    const client = await StreamClient.open(streamUrl(harness.url, stream, query));
    clients.push(client);
  } catch (error) {
    if (error instanceof UpgradeRefused) return error;
    throw error;
  }
  throw new Error('the upgrade was accepted');
}

const isWelcome = (message: ServerMessage): message is WelcomeMessage => message.type === 'WELCOME';
const isDiff = (message: ServerMessage): message is DepthDiffMessage => message.type === 'DEPTH_DIFF';

/** Retries `attempt` until it succeeds, for what the server does a moment after a client acts. */
async function eventually<T>(attempt: () => Promise<T>, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

describe('stream handshake', () => {
  it('answers the upgrade with the connection metadata in headers, and starts the stream with its own messages', async () => {
    const client = await open('depth', { token: trader.token, books: '1,2,1' });
    expect(client.headers).toMatchObject({
      'x-stream-connection-id': expect.stringMatching(/^[0-9a-f-]{36}$/),
      'x-stream-name': 'depth',
      'x-stream-account': trader.account,
      'x-stream-books': '1,2',
      'x-stream-heartbeat-ms': String(HEARTBEAT_MS),
      'x-stream-cancel-on-disconnect': 'false',
    });
    const other = await open('user-events', { token: trader.token });
    expect(other.headers).toMatchObject({ 'x-stream-name': 'user-events', 'x-stream-books': '*' });
    expect(other.headers['x-stream-connection-id']).not.toBe(client.headers['x-stream-connection-id']);

    const maker = await Trader.secp256k1(harness);
    await maker.limit(2, SELL, 100_000, 10);
    const diff = await client.waitFor(isDiff);
    expect(client.messages[0]).toBe(diff);
    expect(diff).toMatchObject({ seq: 1, orderbookId: '2' });
  });

  it('sends the metadata as message 1, the WELCOME, to a client that asks with welcome=true or 1', async () => {
    const client = await open('depth', { token: trader.token, books: '1,2,1', welcome: 'true' });
    const welcome = await client.waitFor(isWelcome);
    expect(welcome).toEqual({
      seq: 1,
      type: 'WELCOME',
      connectionId: client.headers['x-stream-connection-id'],
      stream: 'depth',
      account: trader.account,
      books: [1, 2],
      heartbeatMs: HEARTBEAT_MS,
      cancelOnDisconnect: false,
    });
    const other = await open('user-events', { token: trader.token, welcome: '1' });
    expect(await other.waitFor(isWelcome)).toMatchObject({ seq: 1, stream: 'user-events', books: null });
    const declined = await open('user-events', { token: trader.token, welcome: 'false' });
    await trader.limit(1, SELL, 90_000, 10);
    expect(await declined.waitFor((message) => message.type === 'ORDER_CREATED')).toMatchObject({ seq: 1 });
    expect(declined.messages.some(isWelcome)).toBe(false);
  });

  it('refuses an upgrade without a token with 401 and the JSON error body', async () => {
    const refused = await refusal('depth', { books: '1' });
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ error: expect.stringContaining('token'), code: 'MISSING_AUTHORIZATION' });
  });

  it('refuses an upgrade whose token is not valid', async () => {
    const [header, payload, signature] = trader.token.split('.');
    const tampered = `${header}.${payload}.${signature?.startsWith('A') ? 'B' : 'A'}${signature?.slice(1)}`;
    for (const token of [tampered, 'not-a-jwt']) {
      const refused = await refusal('user-events', { token, books: '1' });
      expect(refused.status).toBe(401);
      expect(refused.body).toMatchObject({ code: 'INVALID_TOKEN' });
    }
  });

  it('refuses unknown books, a depth stream without books and more books than allowed, with 400', async () => {
    expect((await refusal('depth', { token: trader.token, books: '1,99' })).body).toEqual({
      error: 'Unknown order book "99" in books',
      code: 'UNKNOWN_ORDERBOOK',
    });
    expect((await refusal('user-events', { token: trader.token, books: '1,x' })).body).toMatchObject({
      code: 'UNKNOWN_ORDERBOOK',
    });
    const missing = await refusal('depth', { token: trader.token });
    expect([missing.status, missing.body]).toEqual([400, expect.objectContaining({ code: 'MISSING_PARAMETER' })]);
    const tooMany = await refusal('depth', { token: trader.token, books: '1,2,3' });
    expect([tooMany.status, tooMany.body]).toEqual([400, expect.objectContaining({ code: 'TOO_MANY_BOOKS' })]);
  });

  it('refuses a welcome option other than true, 1, false or 0 with 400', async () => {
    const refused = await refusal('depth', { token: trader.token, books: '1', welcome: 'yes' });
    expect([refused.status, refused.body]).toEqual([
      400,
      { error: 'welcome must be true, 1, false or 0', code: 'VALIDATION_FAILED' },
    ]);
  });

  it('answers 404 with the JSON error body for an upgrade to another path', async () => {
    const refused = await StreamClient.open(`${harness.url.replace('http', 'ws')}/ws/trades?token=${trader.token}`).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(UpgradeRefused);
    expect(refused).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
  });
  it('answers a plain GET of a stream path like any unknown route, logging its URL redacted', async () => {
    const response = await fetch(`${harness.url}/ws/depth?books=1&token=${trader.token}`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: 'No route GET /ws/depth', code: 'NOT_FOUND' });
  });
});

describe('stream bounds', () => {
  it('closes a connection that sends a frame over the payload limit with 1009 and keeps serving', async () => {
    const client = await open('depth', { token: trader.token, books: '1' });
    client.socket.send(Buffer.alloc(MAX_PAYLOAD + 1));
    expect((await client.closed).code).toBe(1009);

    const health = await fetch(`${harness.url}/health`);
    expect(health.status).toBe(200);
    const next = await open('depth', { token: trader.token, books: '1' });
    expect(next.socket.readyState).toBe(next.socket.OPEN);
  });

  it('refuses connections past the per-address limit with 429 until one closes', async () => {
    const open4 = await Promise.all(Array.from({ length: MAX_PER_IP }, () => open('depth', { token: trader.token, books: '1' })));
    const refused = await refusal('depth', { token: trader.token, books: '1' });
    expect([refused.status, refused.body]).toEqual([429, expect.objectContaining({ code: 'TOO_MANY_CONNECTIONS' })]);

    await open4[0]?.close();
    // The server gives the slot back when the socket closes on its side, a moment after the client's close.
    const fifth = await eventually(() => open('depth', { token: trader.token, books: '1' }));
    expect(fifth.headers['x-stream-connection-id']).toBeDefined();
  });

  it('closes a peer that stops answering pings and keeps one that answers', async () => {
    const silent = await StreamClient.open(streamUrl(harness.url, 'depth', { token: trader.token, books: '1' }), {
      autoPong: false,
    });
    clients.push(silent);
    const lively = await open('depth', { token: trader.token, books: '1' });
    const closed = await Promise.race([
      silent.closed,
      new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), HEARTBEAT_MS * 20)),
    ]);
    expect(closed?.code).toBe(1006); // terminated: no close frame
    expect(lively.socket.readyState).toBe(lively.socket.OPEN);
  });
});

describe('token lifetime', () => {
  it('keeps a stream open after its token expires, and refuses a new upgrade with that token', async () => {
    const client = await open('depth', { token: trader.token, books: '1' });
    harness.clock.advance((harness.config.jwtTtlSeconds + 60) * 1000);

    const maker = await Trader.secp256k1(harness);
    await maker.limit(1, SELL, 40_000, 10);
    const diff = await client.waitFor(isDiff);
    expect(diff.asks).toEqual([['0.4', '1']]);

    const refused = await refusal('depth', { token: trader.token, books: '1' });
    expect([refused.status, refused.body]).toEqual([401, expect.objectContaining({ code: 'INVALID_TOKEN' })]);
  });
});

describe('logs', () => {
  it('logs stream URLs with the token redacted and never writes a JWT', () => {
    const logs = harness.logs();
    expect(logs).toContain('token=[redacted]');
    expect(logs).toContain('stream opened');
    expect(logs).toContain('stream refused');
    expect(logs).not.toMatch(JWT_PATTERN);
  });
});
