import { generatePrivateKey } from 'viem/accounts';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { getBooks } from '../actions/get-books.js';
import { getDepth } from '../actions/get-depth.js';
import { getOrders } from '../actions/get-orders.js';
import { placeOrders } from '../actions/place-orders.js';
import { limitOrderRequest } from '../amounts.js';
import { type Client, createClient } from '../client.js';
import type { SdkError } from '../errors.js';
import { secp256k1Signer } from '../signing/secp256k1-signer.js';
import { eventually } from '../test-support/eventually.js';
import { recordingFetch, startTestServer, type TestServer } from '../test-support/server.js';
import { type StreamProxy, startStreamProxy } from '../test-support/stream-proxy.js';
import type { OrderbookItem } from '../types.js';
import type { DepthStream, WatchDepthParameters } from './watch-depth.js';
import type { StreamedUserEvent } from './watch-user-events.js';

// What a page bundled with the `browser` condition gets in place of `ws`. The streams and their
// errors load afresh with it, since another file of this worker may have loaded them on Node's
// transport already (a worker keeps its modules across files). The files after this one load them
// afresh again, on Node's.
vi.resetModules();
vi.doMock('#stream-transport', () => import('./browser-transport.js'));
const { watchDepth } = await import('./watch-depth.js');
const { watchUserEvents } = await import('./watch-user-events.js');
const { NetworkError, StreamError } = await import('../errors.js');
vi.doUnmock('#stream-transport');
vi.resetModules();

type WebSocketClass = new (url: string) => object;
const NativeWebSocket = (globalThis as { WebSocket?: WebSocketClass }).WebSocket;
if (NativeWebSocket === undefined) {
  console.warn(`browser-transport.test.ts skipped: Node ${process.version} has no global WebSocket (Node 22 and later have one)`);
}

let api: TestServer;
let book: OrderbookItem;
/** The URL of every browser WebSocket opened, to show the streams went through it. */
const sockets: string[] = [];
const open: { close(): Promise<void> }[] = [];
const fast = { initialDelayMs: 20, maxDelayMs: 200 };
const wallet = () => secp256k1Signer(generatePrivateKey());
const account = (baseUrl: string): Client => createClient({ baseUrl, signer: wallet() });

async function proxy(target = api.url): Promise<StreamProxy> {
  const started = await startStreamProxy(target);
  open.push(started);
  return started;
}

function watch(client: Client, parameters: Partial<WatchDepthParameters> = {}) {
  const errors: SdkError[] = [];
  const statuses: string[] = [];
  const stream = watchDepth(client, {
    books: [1],
    retry: fast,
    onError: (error) => errors.push(error),
    onStatus: (status) => statuses.push(status),
    ...parameters,
  });
  open.push(stream);
  return { stream, errors, statuses };
}

async function buy(trader: Client, price: string): Promise<number> {
  const { orders } = await placeOrders(trader, { orders: [limitOrderRequest(book, { side: 'buy', price, size: '1' })] });
  return Number(orders[0]?.meta.id);
}

async function expectInStep(stream: DepthStream, baseUrl = api.url): Promise<void> {
  const snapshot = await getDepth(createClient({ baseUrl }), { orderbookId: 1 });
  const held = await eventually(`book 1 at update ${snapshot.lastUpdateId}`, () => {
    const current = stream.book(1);
    return current !== undefined && current.lastUpdateId >= snapshot.lastUpdateId ? current : undefined;
  });
  expect({ lastUpdateId: held.lastUpdateId, bids: held.bids(), asks: held.asks() }).toEqual({
    lastUpdateId: snapshot.lastUpdateId,
    bids: snapshot.bids,
    asks: snapshot.asks,
  });
}

describe.skipIf(NativeWebSocket === undefined)('the streams over the browser WebSocket', () => {
  beforeAll(async () => {
    const Native = NativeWebSocket as WebSocketClass;
    vi.stubGlobal(
      'WebSocket',
      class extends Native {
        constructor(url: string) {
          super(url);
          sockets.push(url);
        }
      },
    );
    api = await startTestServer();
    book = (await getBooks(createClient({ baseUrl: api.url }))).orderbooks[0] as OrderbookItem;
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((each) => each.close()));
  });
  afterAll(async () => {
    vi.unstubAllGlobals();
    await api.close();
  });

  it('follows depth diffs over the browser WebSocket with the same seq checks', async () => {
    const through = await proxy();
    const { stream, errors } = watch(account(through.url));
    await stream.waitUntilLive();
    let dropped = false;
    through.filter((message) => {
      if (message.type !== 'DEPTH_DIFF' || dropped) return 'pass';
      dropped = true;
      return 'drop';
    });
    // The loss shows when the next diff arrives.
    const trader = account(api.url);
    for (const price of ['0.21', '0.211']) await buy(trader, price);
    await through.connections(2);
    await expectInStep(stream);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ name: 'StreamError', failure: 'seq-gap' });
    expect(sockets.filter((url) => url.startsWith(through.url.replace(/^http/, 'ws')))).toHaveLength(2);
  });

  it('reports a refused handshake as a stream error and retries, logging in afresh', async () => {
    const through = await proxy();
    const recorder = recordingFetch();
    const client = createClient({
      baseUrl: through.url,
      signer: wallet(),
      accessToken: 'forged.token.value',
      fetch: recorder.fetch,
    });
    const { stream, errors, statuses } = watch(client);
    await stream.waitUntilLive();
    await expectInStep(stream);
    // What Node reads as a 401 ApiError is, in a browser, a failed handshake like an unreachable server's.
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(NetworkError);
    expect(errors[0]?.message).toMatch(/handshake failed; a browser does not tell a refusal/);
    expect(`${errors[0]?.message} ${JSON.stringify(errors[0])}`).not.toContain('forged');
    expect(statuses).toEqual(['reconnecting', 'syncing', 'live']);
    // The reconnect logs in again, as after any failure, so the refused token is not sent twice.
    expect(recorder.urls.filter((url) => url.endsWith('/auth/verify'))).toHaveLength(1);
    // Node's WebSocket (undici) asks a second time when refused with 401, within the same attempt.
    const tokens = through.upgrades.map((query) => query.get('token'));
    expect(tokens[0]).toBe('forged.token.value');
    expect(tokens.at(-1)).toMatch(/^eyJ/);
  });

  it('retries a handshake the server refuses for good until maxAttempts, as it cannot see the 400', async () => {
    const through = await proxy();
    const { stream, errors } = watch(account(through.url), { books: [1, 99], retry: { ...fast, maxAttempts: 3 } });
    const error = await stream.closed;
    expect(error).toBeInstanceOf(NetworkError);
    expect(errors).toHaveLength(3);
    expect(through.upgrades).toHaveLength(3);
  });

  it('keeps a quiet stream live, since a browser cannot see the heartbeat pings', async () => {
    const quick = await startTestServer({ WS_HEARTBEAT_MS: '150' });
    open.push(quick);
    const { stream, errors } = watch(account(quick.url));
    await stream.waitUntilLive();
    // Over six heartbeats with no message: `ws` would have been cut off as silent by now.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(stream.status).toBe('live');
    expect(errors).toEqual([]);
  });

  it('keeps the orders when it resyncs after a lost event and when it is closed, with a clean close each time', async () => {
    const through = await proxy();
    const alice = account(through.url);
    const events: StreamedUserEvent[] = [];
    const errors: SdkError[] = [];
    const stream = watchUserEvents(alice, {
      cancelOnDisconnect: true,
      retry: fast,
      onEvent: (event) => events.push(event),
      onError: (error) => errors.push(error),
    });
    open.push(stream);
    await stream.waitUntilLive();
    let dropped = false;
    through.filter((message) => {
      if (!message.type.startsWith('ORDER_') || dropped) return 'pass';
      dropped = true;
      return 'drop';
    });
    const placed = [await buy(alice, '0.2'), await buy(alice, '0.201')];
    await through.connections(2);
    await stream.waitUntilLive();
    await eventually('both orders', () =>
      placed.every((id) => events.some((event) => event.orderId === String(id))) ? true : undefined,
    );
    expect(errors[0]).toBeInstanceOf(StreamError);
    expect(errors[0]).toMatchObject({ failure: 'seq-gap' });

    await stream.close();
    expect(stream.status).toBe('closed');
    // Long enough for the server to have cancelled them, had it taken either close for a loss.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const { orders } = await getOrders(alice, { status: ['ACTIVE'], limit: 10 });
    expect(orders.map((order) => Number(order.id)).sort()).toEqual(placed.sort());
  });
});
