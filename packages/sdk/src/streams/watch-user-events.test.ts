import { generatePrivateKey } from 'viem/accounts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cancelOrders } from '../actions/cancel-orders.js';
import { getBooks } from '../actions/get-books.js';
import { getDepth } from '../actions/get-depth.js';
import { getOrderHistory } from '../actions/get-order-history.js';
import { getOrders } from '../actions/get-orders.js';
import { placeOrders } from '../actions/place-orders.js';
import { limitOrderRequest, marketOrderRequest, type OrderRequestOptions } from '../amounts.js';
import { type Client, createClient } from '../client.js';
import { ApiError, type SdkError, StreamError } from '../errors.js';
import type { OrderSide } from '../order-types.js';
import { secp256k1Signer } from '../signing/secp256k1-signer.js';
import { eventually } from '../test-support/eventually.js';
import { recordingFetch, startTestServer, type TestServer } from '../test-support/server.js';
import { type StreamProxy, startStreamProxy } from '../test-support/stream-proxy.js';
import type { OrderbookItem } from '../types.js';
import { watchDepth } from './watch-depth.js';
import { type StreamedUserEvent, type WatchUserEventsParameters, watchUserEvents } from './watch-user-events.js';

let api: TestServer;
let books: OrderbookItem[];
const open: { close(): Promise<void> }[] = [];

// Each test trades on a book of its own server, so no order of another test can cross its orders.
beforeEach(async () => {
  api = await startTestServer();
  open.push(api);
  books = (await getBooks(createClient({ baseUrl: api.url }))).orderbooks;
});
afterEach(async () => {
  // Streams and proxies first, the server last.
  const [server, ...rest] = open.splice(0);
  await Promise.all(rest.map((each) => each.close()));
  await server?.close();
});

const account = (baseUrl = api.url): Client => createClient({ baseUrl, signer: secp256k1Signer(generatePrivateKey()) });
const fast = { initialDelayMs: 20, maxDelayMs: 200 };

async function proxy(): Promise<StreamProxy> {
  const started = await startStreamProxy(api.url);
  open.push(started);
  return started;
}

function watch(client: Client, parameters: Partial<WatchUserEventsParameters> = {}) {
  const events: StreamedUserEvent[] = [];
  const errors: SdkError[] = [];
  const stream = watchUserEvents(client, {
    retry: fast,
    onEvent: (event) => events.push(event),
    onError: (error) => errors.push(error),
    ...parameters,
  });
  open.push(stream);
  return { stream, events, errors };
}

async function place(
  client: Client,
  side: OrderSide,
  price: string,
  size: string,
  options: OrderRequestOptions & { book?: number } = {},
): Promise<number> {
  const book = books[(options.book ?? 1) - 1] as OrderbookItem;
  const { orders } = await placeOrders(client, { orders: [limitOrderRequest(book, { side, price, size, ...options })] });
  return Number(orders[0]?.meta.id);
}

/** The open orders `GET /orders` lists, as the stream keeps them. */
async function listedOpen(client: Client) {
  const { orders } = await getOrders(client, { status: ['ACTIVE', 'PARTIALLY_FILLED'], limit: 500 });
  return new Map(
    orders.map((order) => [
      order.id,
      {
        orderId: order.id,
        orderbookId: order.orderbookId,
        status: order.status,
        filledAmount: order.filledAmount,
        sequence: order.sequence,
      },
    ]),
  );
}

const summary = (events: readonly StreamedUserEvent[]) =>
  events.map((event) => [Number(event.orderId), event.type, event.status, event.filledAmount, event.recovered]);

function until(events: readonly StreamedUserEvent[], orderId: number, type: StreamedUserEvent['type']): Promise<true> {
  return eventually(`${type} of order ${orderId}`, () =>
    events.some((event) => event.orderId === String(orderId) && event.type === type) ? true : undefined,
  );
}

describe('watchUserEvents', () => {
  it("tells every event of the account's orders once and in order, and keeps its open orders", async () => {
    const alice = account();
    const bob = account();
    const { stream, events, errors } = watch(alice);
    await stream.waitUntilLive();
    expect(stream.orders()).toEqual(new Map());

    await place(bob, 'sell', '0.3', '2');
    const rejected = await place(alice, 'buy', '0.3', '1', { makerOnly: true });
    const partial = await place(alice, 'buy', '0.3', '3');
    await cancelOrders(alice, { orderIds: [partial] });
    const resting = await place(alice, 'buy', '0.1', '1');
    await until(events, resting, 'ORDER_CREATED');

    expect(summary(events)).toEqual([
      [rejected, 'ORDER_CREATED', 'ACTIVE', '0', false],
      [rejected, 'ORDER_REJECTED', 'REJECTED', '0', false],
      [partial, 'ORDER_CREATED', 'ACTIVE', '0', false],
      [partial, 'ORDER_PARTIALLY_FILLED', 'PARTIALLY_FILLED', '2', false],
      [partial, 'ORDER_CANCELED', 'CANCELED', '2', false],
      [resting, 'ORDER_CREATED', 'ACTIVE', '0', false],
    ]);
    expect(events.find((event) => event.type === 'ORDER_REJECTED')?.reason).toBe('WOULD_TAKE');
    expect(events.find((event) => event.type === 'ORDER_PARTIALLY_FILLED')?.fill).toMatchObject({ role: 'taker', price: '0.3' });
    for (const orderId of [rejected, partial, resting]) {
      const history = await getOrderHistory(alice, { orderId });
      expect(events.filter((event) => event.orderId === String(orderId)).map((event) => String(event.eventId))).toEqual(
        history.events.map((event) => event.id),
      );
    }
    expect(stream.orders()).toEqual(await listedOpen(alice));
    expect(errors).toEqual([]);
  });

  it('starts from the open orders GET /orders lists, and tells only what happens after', async () => {
    const alice = account();
    const first = await place(alice, 'buy', '0.2', '2');
    const second = await place(alice, 'sell', '0.5', '1');
    const { stream, events } = watch(alice);
    await stream.waitUntilLive();
    expect(stream.orders()).toEqual(await listedOpen(alice));
    expect([...stream.orders().keys()].sort()).toEqual([first, second].sort());
    expect(events).toEqual([]);

    await place(account(), 'sell', '0.2', '0.5');
    await until(events, first, 'ORDER_PARTIALLY_FILLED');
    expect(summary(events)).toEqual([[first, 'ORDER_PARTIALLY_FILLED', 'PARTIALLY_FILLED', '0.5', false]]);
    expect(stream.orders().get(first)).toEqual({
      orderId: first,
      orderbookId: '1',
      status: 'PARTIALLY_FILLED',
      filledAmount: '0.5',
      sequence: 2,
    });
  });

  it('replays from the histories what it missed while disconnected, and follows live after', async () => {
    const through = await proxy();
    const alice = account(through.url);
    const bob = account();
    const [a, b, c] = [
      await place(alice, 'buy', '0.2', '1'),
      await place(alice, 'buy', '0.21', '3'),
      await place(alice, 'buy', '0.19', '1'),
    ];
    const { stream, events, errors } = watch(alice);
    await stream.waitUntilLive();

    through.refuseWith(503);
    through.cut();
    await eventually('a refused reconnect', () => (errors.some((error) => error instanceof ApiError) ? true : undefined));
    await cancelOrders(alice, { orderIds: [a] });
    await place(bob, 'sell', '0.21', '1');
    const d = await place(alice, 'buy', '0.18', '1');
    const e = await place(alice, 'buy', '0.17', '1');
    await cancelOrders(alice, { orderIds: [e] });
    through.refuseWith(undefined);
    await stream.waitUntilLive();

    // e opened and ended while the stream was away: its events are replayed too.
    expect(summary(events)).toEqual([
      [a, 'ORDER_CANCELED', 'CANCELED', '0', true],
      [b, 'ORDER_PARTIALLY_FILLED', 'PARTIALLY_FILLED', '1', true],
      [d, 'ORDER_CREATED', 'ACTIVE', '0', true],
      [e, 'ORDER_CREATED', 'ACTIVE', '0', true],
      [e, 'ORDER_CANCELED', 'CANCELED', '0', true],
    ]);
    expect(events.find((event) => event.orderId === String(a))?.reason).toBe('USER');
    expect(stream.orders()).toEqual(await listedOpen(alice));
    expect([...stream.orders().keys()].sort()).toEqual([b, c, d].sort());
    expect(errors[0]).toBeInstanceOf(StreamError);

    await cancelOrders(alice, { orderIds: [c] });
    await until(events, c, 'ORDER_CANCELED');
    expect(summary(events.slice(5))).toEqual([[c, 'ORDER_CANCELED', 'CANCELED', '0', false]]);
    expect(new Set(events.map((event) => event.eventId)).size).toBe(events.length);
  });

  it('comes back after a server restart (1001) and replays what happened before it could reconnect', async () => {
    const through = await proxy();
    const alice = account(through.url);
    const [a, b] = [await place(alice, 'buy', '0.2', '1'), await place(alice, 'buy', '0.21', '1')];
    const { stream, events, errors } = watch(alice);
    await stream.waitUntilLive();

    through.refuseWith(503);
    await api.restart();
    await eventually('the stream to notice the restart', () => (errors.length > 0 ? true : undefined));
    await cancelOrders(alice, { orderIds: [a] });
    through.refuseWith(undefined);
    await stream.waitUntilLive();

    expect(errors[0]).toMatchObject({ name: 'StreamError', failure: 'closed', closeCode: 1001 });
    expect(summary(events)).toEqual([[a, 'ORDER_CANCELED', 'CANCELED', '0', true]]);
    expect([...stream.orders().keys()]).toEqual([b]);
    await cancelOrders(alice, { orderIds: [b] });
    await until(events, b, 'ORDER_CANCELED');
    expect(stream.orders()).toEqual(new Map());
  });

  it('logs in again when the handshake refuses its token, and afresh before every reconnect', async () => {
    const through = await proxy();
    const recorder = recordingFetch();
    const alice = createClient({ baseUrl: through.url, signer: secp256k1Signer(generatePrivateKey()), fetch: recorder.fetch });
    alice.session.set('forged.token.value');
    const { stream, events, errors } = watch(alice);
    await stream.waitUntilLive();
    const logins = () => recorder.urls.filter((url) => url.endsWith('/auth/verify')).length;
    expect(logins()).toBe(1);
    for (const reconnect of [1, 2]) {
      through.cut();
      await through.connections(1 + reconnect);
      await stream.waitUntilLive();
      expect(logins()).toBe(1 + reconnect);
    }
    expect(errors.map((error) => error.name)).toEqual(['ApiError', 'StreamError', 'StreamError']);
    expect(errors[0]).toMatchObject({ status: 401, code: 'INVALID_TOKEN' });
    const tokens = through.upgrades.map((query) => query.get('token'));
    expect(tokens).toHaveLength(4);
    expect(tokens[0]).toBe('forged.token.value');
    expect(tokens.slice(1).every((token) => token?.startsWith('eyJ'))).toBe(true);
    // What the stream reports never carries a token, even the one it just used.
    for (const error of errors) {
      expect(`${error.message} ${JSON.stringify(error)} ${String(error.cause)}`).not.toMatch(/eyJ[\w-]{8,}\.|forged\.token/);
    }

    const id = await place(alice, 'buy', '0.2', '1');
    await until(events, id, 'ORDER_CREATED');
  });

  it('has the server cancel its orders when the connection is lost, asking again on every reconnect', async () => {
    const through = await proxy();
    const alice = account(through.url);
    const [watched, elsewhere] = [await place(alice, 'buy', '0.2', '1'), await place(alice, 'buy', '0.1', '10', { book: 2 })];
    const { stream, events } = watch(alice, { books: [1], cancelOnDisconnect: true });
    await stream.waitUntilLive();

    through.cut();
    await until(events, watched, 'ORDER_CANCELED');
    expect(events.find((event) => event.orderId === String(watched) && event.type === 'ORDER_CANCELED')?.reason).toBe(
      'DISCONNECT',
    );
    expect(through.upgrades.map((query) => query.get('cancelOnDisconnect'))).toEqual(['true', 'true']);
    expect((await listedOpen(alice)).has(elsewhere)).toBe(true);

    const next = await place(alice, 'buy', '0.21', '1');
    through.cut();
    await until(events, next, 'ORDER_CANCELED');
    expect(through.upgrades).toHaveLength(3);
  });

  it('keeps the orders when it resyncs after a lost message, and when it is closed', async () => {
    const through = await proxy();
    const alice = account(through.url);
    const { stream, events, errors } = watch(alice, { cancelOnDisconnect: true });
    await stream.waitUntilLive();
    let dropped = false;
    through.filter((message) => {
      if (!message.type.startsWith('ORDER_') || dropped) return 'pass';
      dropped = true;
      return 'drop';
    });
    const first = await place(alice, 'buy', '0.2', '1');
    const second = await place(alice, 'buy', '0.21', '1');
    await through.connections(2);
    await stream.waitUntilLive();
    await until(events, second, 'ORDER_CREATED');
    expect(errors[0]).toMatchObject({ name: 'StreamError', failure: 'seq-gap' });

    await stream.close();
    // Long enough for the server to have cancelled them, had it taken either close for a loss.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect([...(await listedOpen(alice)).keys()].sort()).toEqual([first, second].sort());
  });

  it('follows only the books it is given', async () => {
    const alice = account();
    const inBookOne = await place(alice, 'buy', '0.2', '1');
    const { stream, events } = watch(alice, { books: [2] });
    await stream.waitUntilLive();
    expect(stream.orders()).toEqual(new Map());
    await place(alice, 'buy', '0.21', '1');
    const inBookTwo = await place(alice, 'buy', '0.1', '10', { book: 2 });
    await until(events, inBookTwo, 'ORDER_CREATED');
    expect(events.map((event) => event.orderId)).toEqual([String(inBookTwo)]);
    expect([...stream.orders().keys()]).toEqual([inBookTwo]);
    expect(stream.orders().has(inBookOne)).toBe(false);
  });

  it('loses no event when its connection is cut again and again while the account trades', async () => {
    const through = await proxy();
    const signer = secp256k1Signer(generatePrivateKey());
    const alice = createClient({ baseUrl: api.url, signer });
    const bob = account();
    const { stream, events, errors } = watch(createClient({ baseUrl: through.url, signer }));
    const depth = watchDepth(createClient({ baseUrl: through.url, signer: secp256k1Signer(generatePrivateKey()) }), {
      books: [1],
      retry: fast,
    });
    open.push(depth);
    await Promise.all([stream.waitUntilLive(), depth.waitUntilLive()]);

    // A fixed pseudo-random run: the same orders, cancels and cuts every time.
    let seed = 0x2f6e2b1;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
    const book = books[0] as OrderbookItem;
    let trading = true;
    const cutting = (async () => {
      for (let cut = 0; trading; cut++) {
        await new Promise((resolve) => setTimeout(resolve, 60 + random() * 200));
        // Now and then the server also refuses the reconnects for a while, so more happens in the gap.
        if (cut % 4 === 3) through.refuseWith(503);
        through.cut();
        await new Promise((resolve) => setTimeout(resolve, random() * 150));
        through.refuseWith(undefined);
      }
    })();
    const mine: number[] = [];
    const disconnects = () => errors.filter((error) => error instanceof StreamError).length;
    // At least 80 steps, and on until the stream lost its connection three times (at most 400 steps).
    for (let step = 0; (step < 80 || disconnects() < 3) && step < 400; step++) {
      const price = (0.2 + Math.floor(random() * 6) / 100).toFixed(2);
      const action = random();
      if (action < 0.35) mine.push(await place(alice, pick(['buy', 'sell'] as const), price, pick(['1', '2', '0.5'])));
      else if (action < 0.65) await place(bob, pick(['buy', 'sell'] as const), price, pick(['1', '1.5']));
      else if (action < 0.8) {
        const side = pick(['buy', 'sell'] as const);
        const order = marketOrderRequest(book, { side, inputAmount: side === 'sell' ? 100_000_000n : 250_000n });
        await placeOrders(alice, { orders: [order] });
      } else if (mine.length > 0) await cancelOrders(alice, { orderIds: [pick(mine)] });
    }
    trading = false;
    await cutting;
    await stream.waitUntilLive();

    // Every event of every order of the account, as its history tells it.
    const { orders } = await getOrders(alice, { limit: 500 });
    const histories = await Promise.all(orders.map((order) => getOrderHistory(alice, { orderId: order.id })));
    type Told = readonly [orderId: number, eventId: number, type: string];
    const byId = (a: Told, b: Told) => a[1] - b[1];
    const expected = histories.flatMap((history) =>
      history.events.map((event): Told => [history.orderId, Number(event.id), event.type]),
    );
    const last = Math.max(...expected.map(([, id]) => id));
    await eventually('every event', () => (events.some((event) => event.eventId === last) ? true : undefined));
    const historyType = (type: string) => (type === 'ORDER_PARTIALLY_FILLED' ? 'PARTIAL_FILL' : type.replace('ORDER_', ''));
    const told = events.map((event): Told => [Number(event.orderId), event.eventId ?? 0, historyType(event.type)]);
    expect(told.sort(byId)).toEqual(expected.sort(byId));
    const ids = events.map((event) => event.eventId ?? 0);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(events.some((event) => event.recovered)).toBe(true);
    expect(disconnects()).toBeGreaterThanOrEqual(3);
    expect(stream.orders()).toEqual(await listedOpen(alice));

    const snapshot = await getDepth(alice, { orderbookId: 1 });
    const held = await eventually('the depth watcher in step', () => {
      const current = depth.book(1);
      return current !== undefined && current.lastUpdateId >= snapshot.lastUpdateId ? current : undefined;
    });
    expect({ lastUpdateId: held.lastUpdateId, bids: held.bids(), asks: held.asks() }).toEqual({
      lastUpdateId: snapshot.lastUpdateId,
      bids: snapshot.bids,
      asks: snapshot.asks,
    });
  }, 60_000);
});
