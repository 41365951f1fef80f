import { generatePrivateKey } from 'viem/accounts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { getBooks } from '../actions/get-books.js';
import { getDepth } from '../actions/get-depth.js';
import { placeOrders } from '../actions/place-orders.js';
import { limitOrderRequest } from '../amounts.js';
import { type Client, createClient } from '../client.js';
import { ApiError, InvalidParameterError, NotAuthenticatedError, SdkError, StreamError } from '../errors.js';
import type { OrderSide } from '../order-types.js';
import { secp256k1Signer } from '../signing/secp256k1-signer.js';
import { eventually } from '../test-support/eventually.js';
import { startTestServer, type TestServer } from '../test-support/server.js';
import { type StreamProxy, startStreamProxy } from '../test-support/stream-proxy.js';
import type { OrderbookItem } from '../types.js';
import type { OrderBookView } from './depth-book.js';
import { type DepthChange, type DepthStream, type WatchDepthParameters, watchDepth } from './watch-depth.js';

let api: TestServer;
let book: OrderbookItem;
let traders: Client[];
const open: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  api = await startTestServer();
  book = (await getBooks(createClient({ baseUrl: api.url }))).orderbooks[0] as OrderbookItem;
  traders = [0, 1].map(() => createClient({ baseUrl: api.url, signer: secp256k1Signer(generatePrivateKey()) }));
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((each) => each.close()));
});
afterAll(async () => {
  await api.close();
});

const wallet = () => secp256k1Signer(generatePrivateKey());
/** Retries quickly, so a test does not wait out the production backoff. */
const fast = { initialDelayMs: 20, maxDelayMs: 200 };

async function proxy(target = api.url): Promise<StreamProxy> {
  const started = await startStreamProxy(target);
  open.push(started);
  return started;
}

function watch(baseUrl: string, parameters: Partial<WatchDepthParameters> = {}) {
  const errors: SdkError[] = [];
  const changes: DepthChange['kind'][] = [];
  const client = createClient({ baseUrl, signer: wallet() });
  const stream = watchDepth(client, {
    books: [1],
    retry: fast,
    onError: (error) => errors.push(error),
    onBook: (_book, change) => changes.push(change.kind),
    ...parameters,
  });
  open.push(stream);
  return { stream, errors, changes, client };
}

async function trade(trader: Client, side: OrderSide, price: string, size: string): Promise<void> {
  await placeOrders(trader, { orders: [limitOrderRequest(book, { side, price, size })] });
}

/** Once the stream has caught up, its book is exactly `GET /depth` at the same update id. */
async function expectInStep(stream: DepthStream, orderbookId = 1, baseUrl = api.url): Promise<OrderBookView> {
  const snapshot = await getDepth(createClient({ baseUrl }), { orderbookId });
  const held = await eventually(`book ${orderbookId} at update ${snapshot.lastUpdateId}`, () => {
    const current = stream.book(orderbookId);
    return current !== undefined && current.lastUpdateId >= snapshot.lastUpdateId ? current : undefined;
  });
  expect({ lastUpdateId: held.lastUpdateId, bids: held.bids(), asks: held.asks() }).toEqual({
    lastUpdateId: snapshot.lastUpdateId,
    bids: snapshot.bids,
    asks: snapshot.asks,
  });
  return held;
}

describe('watchDepth', () => {
  it('rebuilds a book from its snapshot and follows every diff, also when it joins while orders stream in', async () => {
    const [alice, bob] = traders as [Client, Client];
    await trade(alice, 'buy', '0.24', '5');
    const streaming = (async () => {
      for (let round = 0; round < 6; round++) {
        await trade(alice, 'buy', (0.2401 + round / 10_000).toFixed(5), '2');
        await trade(bob, 'sell', (0.2601 - round / 10_000).toFixed(5), '3');
        // Takes from the best bid, so levels shrink and vanish too.
        await trade(bob, 'sell', '0.2401', '1');
      }
    })();
    const { stream, changes, errors } = watch(api.url);
    await stream.waitUntilLive();
    await streaming;
    const held = await expectInStep(stream);
    expect(held.bestBid()).toEqual(held.bids(1)[0]);
    expect(held.bestAsk()).toEqual(held.asks(1)[0]);
    expect(changes[0]).toBe('snapshot');
    expect(changes.filter((kind) => kind === 'snapshot')).toHaveLength(1);
    expect(errors).toEqual([]);
    expect(stream.status).toBe('live');
  });

  it.each([
    ['a message is lost (a gap in seq)', 'drop', 'seq-gap', ['0.21', '0.211']],
    ['update ids jump though seq does not', 'drop-and-renumber', 'update-gap', ['0.212', '0.213']],
  ] as const)('resyncs from a fresh snapshot when %s', async (_case, verdict, failure, prices) => {
    const through = await proxy();
    const { stream, errors, changes } = watch(through.url);
    await stream.waitUntilLive();
    let dropped = false;
    through.filter((message) => {
      if (message.type !== 'DEPTH_DIFF' || dropped) return 'pass';
      dropped = true;
      return verdict;
    });
    // The loss shows when the next message arrives.
    for (const price of prices) await trade(traders[0] as Client, 'buy', price, '1');
    await through.connections(2);
    await expectInStep(stream);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(StreamError);
    expect(errors[0]).toMatchObject({ failure });
    expect(changes.filter((kind) => kind === 'snapshot')).toHaveLength(2);
    expect(through.upgrades).toHaveLength(2);
  });

  it('reconnects after the connection is cut and catches up with what traded meanwhile', async () => {
    const through = await proxy();
    const statuses: string[] = [];
    const { stream, errors } = watch(through.url, { onStatus: (status) => statuses.push(status) });
    await stream.waitUntilLive();
    through.refuseWith(503);
    through.cut();
    await eventually('a refused reconnect', () => (errors.some((error) => error instanceof ApiError) ? true : undefined));
    expect(stream.book(1)).toBeUndefined();
    await trade(traders[1] as Client, 'sell', '0.29', '4');
    through.refuseWith(undefined);
    await stream.waitUntilLive();
    await expectInStep(stream);
    expect(errors[0]).toMatchObject({ name: 'StreamError', failure: 'closed', closeCode: 1006 });
    expect(errors.slice(1).every((error) => error instanceof ApiError && error.status === 503)).toBe(true);
    expect(statuses).toEqual(['syncing', 'live', 'reconnecting', 'syncing', 'live']);
  });

  it('logs in again when the handshake refuses its token, and never shows the token', async () => {
    const through = await proxy();
    const errors: SdkError[] = [];
    const client = createClient({ baseUrl: through.url, signer: wallet(), accessToken: 'forged.token.value' });
    const stream = watchDepth(client, { books: ['1'], retry: fast, onError: (error) => errors.push(error) });
    open.push(stream);
    await stream.waitUntilLive();
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ name: 'ApiError', status: 401, code: 'INVALID_TOKEN' });
    expect((errors[0] as ApiError).url).toMatch(/\/ws\/depth\?books=1&welcome=true&token=redacted$/);
    expect(JSON.stringify(errors[0])).not.toContain('forged.token.value');
    const tokens = through.upgrades.map((query) => query.get('token'));
    expect(tokens[0]).toBe('forged.token.value');
    expect(tokens[1]).toMatch(/^eyJ/);
    await expectInStep(stream);
  });

  it('gives up on a connection that went silent for two heartbeats of its WELCOME, and reconnects', async () => {
    const quick = await startTestServer({ WS_HEARTBEAT_MS: '150' });
    open.push(quick);
    const through = await proxy(quick.url);
    const { stream, errors } = watch(through.url);
    await stream.waitUntilLive();
    expect(through.upgrades[0]?.get('welcome')).toBe('true');
    through.silence();
    await through.connections(2);
    await stream.waitUntilLive();
    expect(errors[0]).toMatchObject({ name: 'StreamError', failure: 'silent' });
  });

  it('follows a server that sends no WELCOME, trusting a quiet connection for two default heartbeats', async () => {
    const quick = await startTestServer({ WS_HEARTBEAT_MS: '150' });
    open.push(quick);
    const through = await proxy(quick.url);
    through.filter((message) => (message.type === 'WELCOME' ? 'drop-and-renumber' : 'pass'));
    const { stream, errors } = watch(through.url);
    await stream.waitUntilLive();
    await trade(createClient({ baseUrl: quick.url, signer: wallet() }), 'buy', '0.15', '2');
    await expectInStep(stream, 1, quick.url);

    // Without the WELCOME's 150 ms, silence is judged by the default heartbeat (30 s), not cut short.
    through.silence();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(stream.status).toBe('live');
    expect(errors).toEqual([]);
    expect(through.upgrades).toHaveLength(1);
  });

  it('rebuilds the book after a server restart (1001), with what traded before it could reconnect', async () => {
    const own = await startTestServer();
    open.push(own);
    const through = await proxy(own.url);
    const trader = createClient({ baseUrl: own.url, signer: wallet() });
    await trade(trader, 'sell', '0.3', '2');
    const { stream, errors } = watch(through.url);
    await stream.waitUntilLive();

    through.refuseWith(503);
    await own.restart();
    await eventually('the stream to notice the restart', () => (errors.length > 0 ? true : undefined));
    await trade(trader, 'sell', '0.31', '1');
    through.refuseWith(undefined);
    await stream.waitUntilLive();
    const held = await expectInStep(stream, 1, own.url);
    expect(held.asks()).toEqual([
      ['0.3', '2'],
      ['0.31', '1'],
    ]);
    expect(errors[0]).toMatchObject({ name: 'StreamError', failure: 'closed', closeCode: 1001 });
  });

  it('stops with the server error when a book does not exist, without retrying', async () => {
    const through = await proxy();
    const { stream, errors } = watch(through.url, { books: [1, 99] });
    const error = await stream.closed;
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, code: 'UNKNOWN_ORDERBOOK' });
    expect(errors).toEqual([error]);
    expect(stream.status).toBe('closed');
    await expect(stream.waitUntilLive()).rejects.toBe(error);
    expect(through.upgrades).toHaveLength(1);
  });

  it('gives up after maxAttempts failures in a row', async () => {
    const through = await proxy();
    through.refuseWith(503);
    const { stream, errors } = watch(through.url, { retry: { ...fast, maxAttempts: 3 } });
    expect(await stream.closed).toMatchObject({ name: 'ApiError', status: 503, code: 'PROXY_REFUSED' });
    expect(errors).toHaveLength(3);
    expect(through.upgrades).toHaveLength(3);
  });

  it('stops at once when it has neither a token nor a signer', async () => {
    const through = await proxy();
    const stream = watchDepth(createClient({ baseUrl: through.url }), { books: [1] });
    open.push(stream);
    expect(await stream.closed).toBeInstanceOf(NotAuthenticatedError);
    expect(through.upgrades).toEqual([]);
  });

  it.each([[[]], [[-1]], [['one']], [[1.5]]])('refuses the books %j before connecting', (books) => {
    const client = createClient({ baseUrl: api.url, signer: wallet() });
    expect(() => watchDepth(client, { books })).toThrow(InvalidParameterError);
  });

  it('tells nothing more once closed, and reports a callback that throws without stopping', async () => {
    let calls = 0;
    const { stream, errors } = watch(api.url, {
      onBook: () => {
        calls++;
        if (calls === 1) throw new Error('a bug in the caller');
      },
    });
    await stream.waitUntilLive();
    await trade(traders[0] as Client, 'buy', '0.201', '1');
    await eventually('the diff after the failed callback', () => (calls >= 2 ? true : undefined));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(SdkError);
    expect(errors[0]?.shortMessage).toBe('A stream callback threw');
    expect(stream.status).toBe('live');

    await stream.close();
    const before = calls;
    await trade(traders[0] as Client, 'buy', '0.202', '1');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(calls).toBe(before);
    expect(stream.status).toBe('closed');
    expect(await stream.closed).toBeUndefined();
    expect(stream.book(1)).toBeUndefined();
  });
});
