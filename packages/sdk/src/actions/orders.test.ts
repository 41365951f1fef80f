import { until } from '@dex/server/test-support';
import { PrivateKey } from '@hashgraph/sdk';
import { generatePrivateKey } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limitOrderRequest, marketOrderRequest } from '../amounts.js';
import { type Client, createClient } from '../client.js';
import { ApiError, NotAuthenticatedError, OrderMismatchError, SdkError } from '../errors.js';
import type { BuiltOrder } from '../order-types.js';
import { ed25519Signer } from '../signing/ed25519-signer.js';
import { secp256k1Signer } from '../signing/secp256k1-signer.js';
import type { Signer } from '../signing/signer.js';
import {
  recordingFetch,
  registerEd25519Account,
  startRewritingProxy,
  startTestServer,
  type TestServer,
} from '../test-support/server.js';
import type { OrderbookItem } from '../types.js';
import { authenticate } from './authenticate.js';
import { buildOrders } from './build-orders.js';
import { cancelAfter } from './cancel-after.js';
import { cancelAllOrders } from './cancel-all-orders.js';
import { cancelOrders } from './cancel-orders.js';
import { getBooks } from './get-books.js';
import { getFees } from './get-fees.js';
import { getOnboardingStatus } from './get-onboarding-status.js';
import { getOrderHistory } from './get-order-history.js';
import { getOrders } from './get-orders.js';
import { placeOrders } from './place-orders.js';
import { saveOrders } from './save-orders.js';
import { signOrders } from './sign-orders.js';

let api: TestServer;
let book: OrderbookItem;

beforeAll(async () => {
  api = await startTestServer();
  const books = await getBooks(createClient({ baseUrl: api.url }));
  book = books.orderbooks[0] as OrderbookItem;
});

afterAll(async () => {
  await api.close();
});

const wallet = (): Signer => secp256k1Signer(generatePrivateKey());

async function ledgerAccount(): Promise<Signer> {
  const key = PrivateKey.generateED25519();
  const account = await registerEd25519Account(api.server, key.publicKey.toBytesRaw());
  return ed25519Signer(key, { account });
}

/** The routes a recorded client called, without the base URL. */
const routes = (urls: string[]) => urls.map((url) => url.slice(api.url.length).split('?')[0]);

describe('placeOrders', () => {
  it('logs in on first use, then builds, signs and saves a limit order', async () => {
    const recorder = recordingFetch();
    const client = createClient({ baseUrl: api.url, signer: wallet(), fetch: recorder.fetch });
    const { orders } = await placeOrders(client, {
      orders: [limitOrderRequest(book, { side: 'sell', price: '0.3', size: '2' })],
    });
    expect(orders).toHaveLength(1);
    expect(orders[0]?.meta).toMatchObject({ status: 'ACTIVE', orderbookId: '1', type: 'LIMIT', filledAmount: '0' });
    expect(orders[0]?.input).toEqual({ token: book.baseTokenEvmAddress, amount: '200000000' });
    expect(orders[0]?.output.amount).toBe('600000');
    expect(routes(recorder.urls)).toEqual([
      '/auth/challenge',
      '/auth/verify',
      '/orders/build',
      '/signature/domain',
      '/orders/save',
    ]);
  });

  it('matches an Ed25519 ledger account against a secp256k1 wallet, and both see the fill', async () => {
    const maker = createClient({ baseUrl: api.url, signer: await ledgerAccount() });
    const taker = createClient({ baseUrl: api.url, signer: wallet() });
    const [resting] = (await placeOrders(maker, { orders: [limitOrderRequest(book, { side: 'buy', price: '0.2', size: '3' })] }))
      .orders;
    const { orders } = await placeOrders(taker, {
      orders: [marketOrderRequest(book, { side: 'sell', inputAmount: 100_000_000n, minOutputAmount: 190_000n })],
    });
    expect(orders[0]?.meta).toMatchObject({ status: 'FILLED', type: 'MARKET' });
    const id = Number(resting?.meta.id);
    const history = await getOrderHistory(maker, { orderId: id });
    expect(history.events.map((event) => event.type)).toEqual(['CREATED', 'PARTIAL_FILL']);
    expect(history.events[1]?.fill).toMatchObject({ role: 'maker', price: '0.2', amountBase: '1', quoteAmount: '200000' });
    const listed = await getOrders(maker, { status: ['ACTIVE', 'PARTIALLY_FILLED'], orderbookId: 1 });
    expect(listed.orders.map((order) => [order.id, order.status, order.filledAmount])).toEqual([[id, 'PARTIALLY_FILLED', '1']]);
    expect(String(listed.lastUpdateId)).toBe(history.events[1]?.id);
  });

  it("sends a self-trade prevention mode with the save: an order meeting the account's own is cancelled", async () => {
    const client = createClient({ baseUrl: api.url, signer: wallet() });
    // A price inside the spread the other tests left: the account's own ask is the best one.
    const depth = (await (await fetch(`${api.url}/depth/${book.id}`)).json()) as { bids: string[][]; asks: string[][] };
    const inside = ((Number(depth.bids[0]?.[0] ?? '0.1') + Number(depth.asks[0]?.[0] ?? '10')) / 2).toFixed(4);
    await placeOrders(client, { orders: [limitOrderRequest(book, { side: 'sell', price: inside, size: '1' })] });
    const result = await placeOrders(client, {
      orders: [limitOrderRequest(book, { side: 'buy', price: inside, size: '1' })],
      selfTradePrevention: 'EXPIRE_TAKER',
    });
    expect(result.orders[0]?.meta).toMatchObject({
      status: 'CANCELED',
      reason: 'SELF_TRADE',
      selfTradePrevention: 'EXPIRE_TAKER',
    });
  });

  it('links two orders one-cancels-other', async () => {
    const client = createClient({ baseUrl: api.url, signer: wallet() });
    const result = await placeOrders(client, {
      orders: [
        limitOrderRequest(book, { side: 'sell', price: '0.5', size: '1' }),
        limitOrderRequest(book, { side: 'sell', price: '0.6', size: '1' }),
      ],
      ocoLinks: [{ a: 0, b: 1 }],
    });
    const [a, b] = result.orders.map((order) => Number(order.meta.id));
    expect(result.oco?.links).toEqual([{ a, b }]);
  });

  it('reports the refused item of a batch by its index, and saves none of it', async () => {
    const client = createClient({ baseUrl: api.url, signer: wallet() });
    const good = limitOrderRequest(book, { side: 'sell', price: '0.7', size: '1' });
    const error = await placeOrders(client, { orders: [good, { ...good, inputAmount: '150000001' }] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, code: 'ORDER_OFF_GRID', index: 1 });
    expect((await getOrders(client)).total).toBe(0);
  });
});

describe('signing checks what the server built', () => {
  const tamper = (field: (order: BuiltOrder) => void) => (path: string, body: unknown) => {
    if (path === '/orders/build') for (const order of (body as { orders: BuiltOrder[] }).orders) field(order);
    return body;
  };

  it.each([
    ['output.recipient', (order: BuiltOrder) => Object.assign(order.output, { recipient: `0x${'66'.repeat(20)}` })],
    ['output.amount', (order: BuiltOrder) => Object.assign(order.output, { amount: '1' })],
    ['input.token', (order: BuiltOrder) => Object.assign(order.input, { token: `0x${'00'.repeat(18)}03eb` })],
    ['info.reactor', (order: BuiltOrder) => Object.assign(order.info, { reactor: `0x${'77'.repeat(20)}` })],
    ['maxTakerFeePips', (order: BuiltOrder) => Object.assign(order, { maxTakerFeePips: 50_000 })],
    ['info.deadline', (order: BuiltOrder) => Object.assign(order.info, { deadline: '99999999999' })],
    ['meta.orderHash', (order: BuiltOrder) => Object.assign(order.meta, { orderHash: `0x${'ab'.repeat(32)}` })],
    ['meta.isAMMEnabled', (order: BuiltOrder) => Object.assign(order.meta, { isAMMEnabled: true })],
  ])('refuses to sign an order whose %s is not what was asked, and saves nothing', async (field, change) => {
    const proxy = await startRewritingProxy(api.url, tamper(change));
    try {
      const signer = wallet();
      const recorder = recordingFetch();
      const client = createClient({ baseUrl: proxy.url, signer, fetch: recorder.fetch });
      const request = limitOrderRequest(book, {
        side: 'sell',
        price: '0.9',
        size: '1',
        deadline: Math.floor(Date.now() / 1000) + 600,
      });
      const error = await placeOrders(client, { orders: [request] }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OrderMismatchError);
      expect(error).toMatchObject({ index: 0, field });
      expect(recorder.urls.some((url) => url.endsWith('/orders/save'))).toBe(false);
      expect((await getOrders(createClient({ baseUrl: api.url, signer }))).total).toBe(0);
    } finally {
      await proxy.close();
    }
  });

  it('signs orders built elsewhere after the account checks alone', async () => {
    const client = createClient({ baseUrl: api.url, signer: wallet() });
    const built = await buildOrders(client, { orders: [limitOrderRequest(book, { side: 'buy', price: '0.1', size: '1' })] });
    const items = await signOrders(client, { orders: built });
    const { orders } = await saveOrders(client, { items });
    expect(orders[0]?.meta.status).toBe('ACTIVE');
    const other = createClient({ baseUrl: api.url, signer: wallet() });
    await expect(signOrders(other, { orders: built })).rejects.toMatchObject({
      name: 'OrderMismatchError',
      field: 'info.swapper',
    });
  });

  it('does not sign a login challenge that names another account', async () => {
    const proxy = await startRewritingProxy(api.url, (path, body) =>
      path === '/auth/challenge'
        ? { message: (body as { message: string }).message.replace(/Account: .*/, 'Account: 0.0.1') }
        : body,
    );
    try {
      const recorder = recordingFetch();
      const client = createClient({ baseUrl: proxy.url, signer: wallet(), fetch: recorder.fetch });
      await expect(authenticate(client)).rejects.toBeInstanceOf(SdkError);
      expect(recorder.urls.some((url) => url.endsWith('/auth/verify'))).toBe(false);
    } finally {
      await proxy.close();
    }
  });
});

describe('access tokens', () => {
  it('logs in again once on a 401 and repeats the request', async () => {
    const recorder = recordingFetch();
    const client = createClient({ baseUrl: api.url, signer: wallet(), accessToken: 'expired.or.forged', fetch: recorder.fetch });
    expect((await getOrders(client)).total).toBe(0);
    expect(routes(recorder.urls)).toEqual(['/orders', '/auth/challenge', '/auth/verify', '/orders']);
  });

  it('shares one login among concurrent calls', async () => {
    const recorder = recordingFetch();
    const client = createClient({ baseUrl: api.url, signer: wallet(), accessToken: 'stale.token.x', fetch: recorder.fetch });
    await Promise.all([getOrders(client), getFees(client, { orderbookId: 1 }), getOrders(client, { status: 'ACTIVE' })]);
    expect(routes(recorder.urls).filter((route) => route === '/auth/verify')).toHaveLength(1);
  });

  it('gives up after one renewal when the server keeps refusing', async () => {
    const recorder = recordingFetch();
    // Every GET /orders goes out with a forged token, whatever the client logged in with.
    const fetch = (url: string, init: RequestInit) =>
      recorder.fetch(url, url.endsWith('/orders') ? { ...init, headers: { authorization: 'Bearer forged.token.x' } } : init);
    const client = createClient({ baseUrl: api.url, signer: wallet(), fetch });
    await expect(getOrders(client)).rejects.toMatchObject({ status: 401, code: 'INVALID_TOKEN' });
    expect(routes(recorder.urls)).toEqual([
      '/auth/challenge',
      '/auth/verify',
      '/orders',
      '/auth/challenge',
      '/auth/verify',
      '/orders',
    ]);
  });

  it('refuses an account call without a token or a signer, before sending anything', async () => {
    const recorder = recordingFetch();
    const client = createClient({ baseUrl: api.url, fetch: recorder.fetch });
    await expect(getOrders(client)).rejects.toBeInstanceOf(NotAuthenticatedError);
    expect(recorder.urls).toEqual([]);
  });

  it('authenticates early and keeps the token for later calls', async () => {
    const signer = wallet();
    const client = createClient({ baseUrl: api.url, signer });
    const before = Date.now();
    const { account, token, expiresAt } = await authenticate(client);
    expect(account).toBe(signer.account);
    expect(token.split('.')).toHaveLength(3);
    expect(expiresAt).toBeGreaterThan(before + 800_000);
    const recorder = recordingFetch();
    const again = createClient({ baseUrl: api.url, accessToken: token, fetch: recorder.fetch });
    await getOrders(again);
    expect(routes(recorder.urls)).toEqual(['/orders']);
  });
});

describe('cancellation', () => {
  let client: Client;
  beforeAll(() => {
    client = createClient({ baseUrl: api.url, signer: wallet() });
  });

  it('cancels orders by id and says which ids it skipped', async () => {
    const { orders } = await placeOrders(client, {
      orders: [limitOrderRequest(book, { side: 'sell', price: '1.5', size: '1' })],
    });
    const id = Number(orders[0]?.meta.id);
    expect(await cancelOrders(client, { orderIds: [id, '999999'] })).toEqual({
      status: 'PENDING',
      message: expect.any(String),
      accepted: [id],
      skipped: [999999],
      skippedDetails: [{ orderId: 999999, reason: 'NOT_FOUND' }],
    });
    const history = await getOrderHistory(client, { orderId: id });
    expect(history.events.at(-1)).toMatchObject({ type: 'CANCELED', reason: 'USER' });
  });

  it('cancels everything below a nonce floor and keeps the newer order', async () => {
    const older = await placeOrders(client, { orders: [limitOrderRequest(book, { side: 'sell', price: '1.6', size: '1' })] });
    const newer = await placeOrders(client, { orders: [limitOrderRequest(book, { side: 'sell', price: '1.7', size: '1' })] });
    const floor = newer.orders[0]?.info.nonce as string;
    const result = await cancelAllOrders(client, { nonceFloor: floor });
    expect(result).toMatchObject({ accepted: [Number(older.orders[0]?.meta.id)], nonceFloor: floor });
    const open = await getOrders(client, { status: 'ACTIVE' });
    expect(open.orders.map((order) => order.id)).toEqual([Number(newer.orders[0]?.meta.id)]);
  });

  it('arms the dead-man switch, which cancels every open order when no call renews it', async () => {
    const own = createClient({ baseUrl: api.url, signer: wallet() });
    const { orders } = await placeOrders(own, { orders: [limitOrderRequest(book, { side: 'sell', price: '1.8', size: '1' })] });
    const armed = await cancelAfter(own, { timeoutSeconds: 60 });
    expect(Date.parse(armed.triggerTime ?? '') - Date.parse(armed.currentTime)).toBe(60_000);
    expect(armed.timeoutSeconds).toBe(60);
    expect(await cancelAfter(own, { timeoutSeconds: 0 })).toMatchObject({ timeoutSeconds: 0, triggerTime: null });

    await cancelAfter(own, { timeoutSeconds: 1 });
    const id = Number(orders[0]?.meta.id);
    await until(async () => {
      const history = await getOrderHistory(own, { orderId: id });
      return history.events.find((event) => event.type === 'CANCELED' && event.reason === 'CANCEL_AFTER');
    }, 'the switch to fire');
  });

  it.each([-1, 86_401, 1.5, Number.NaN])('refuses the timeout %s before sending anything', async (timeoutSeconds) => {
    const recorder = recordingFetch();
    const own = createClient({ baseUrl: api.url, signer: wallet(), fetch: recorder.fetch });
    await expect(cancelAfter(own, { timeoutSeconds })).rejects.toMatchObject({
      name: 'InvalidParameterError',
      parameter: 'timeoutSeconds',
    });
    expect(recorder.urls).toEqual([]);
  });

  it.each([
    [[], 'orderIds'],
    [Array.from({ length: 501 }, (_, i) => i + 1), 'orderIds'],
    [[0], 'orderIds[0]'],
    [['1e3'], 'orderIds[0]'],
  ])('refuses the ids %#', async (orderIds, parameter) => {
    await expect(cancelOrders(client, { orderIds })).rejects.toMatchObject({ name: 'InvalidParameterError', parameter });
  });
});

describe('account routes', () => {
  it('reads the fee rates of both sides and the onboarding status', async () => {
    const client = createClient({ baseUrl: api.url, signer: await ledgerAccount() });
    expect(await getFees(client, { orderbookId: 1, side: 'taker' })).toEqual({
      side: 'taker',
      marketId: `0x${'1'.padStart(64, '0')}`,
      makerFeePips: 0,
      takerFeePips: 1000,
      capFractionPips: 0,
    });
    expect((await getFees(client, { orderbookId: '2' })).side).toBe('maker');
    expect(await getOnboardingStatus(client, { orderbookId: 1 })).toMatchObject({ isComplete: true, pendingSteps: [] });
    await expect(getFees(client, { orderbookId: 99 })).rejects.toMatchObject({ status: 404, code: 'ORDERBOOK_NOT_FOUND' });
  });
});
