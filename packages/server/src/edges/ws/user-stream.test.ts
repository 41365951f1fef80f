import { BUY, SELL } from '@dex/core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness, Trader } from '../../test-support/harness.js';
import { StreamClient, streamUrl, UpgradeRefused } from '../../test-support/stream-client.js';
import type { ServerMessage, UserEventMessage } from './protocol.js';

let harness: Harness;
const clients: StreamClient[] = [];

beforeAll(async () => {
  harness = await startHarness({}, { listen: true });
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});
afterAll(async () => {
  await harness.close();
});

async function userEvents(trader: Trader, books?: string): Promise<StreamClient> {
  const client = await StreamClient.open(
    streamUrl(harness.url, 'user-events', books === undefined ? { token: trader.token } : { token: trader.token, books }),
  );
  clients.push(client);
  return client;
}

const isEvent = (message: ServerMessage): message is UserEventMessage => message.type.startsWith('ORDER_');

function eventsOf(client: StreamClient): UserEventMessage[] {
  return client.messages.filter(isEvent);
}

/** Waits for the event of `type` of order `orderId` on the stream. */
function eventFor(client: StreamClient, orderId: number, type: UserEventMessage['type']): Promise<UserEventMessage> {
  return client.waitFor(
    (message): message is UserEventMessage => isEvent(message) && message.orderId === String(orderId) && message.type === type,
  );
}

interface ListedOrder {
  id: number;
  status: string;
  filledAmount: string;
  sequence: number;
}

async function listOrders(trader: Trader): Promise<{ orders: ListedOrder[]; lastUpdateId: number }> {
  const reply = await trader.request<{ orders: ListedOrder[]; lastUpdateId: number }>('GET', '/orders?limit=500');
  expect(reply.status).toBe(200);
  return reply.body;
}

describe('/ws/user-events', () => {
  it("streams every kind of order event to the order's owner only, filtered by books", async () => {
    const alice = await Trader.secp256k1(harness);
    const bob = await Trader.ed25519(harness);
    const aliceBookOne = await userEvents(alice, '1');
    const aliceBookTwo = await userEvents(alice, '2');
    const bobAll = await userEvents(bob);

    await bob.limit(1, SELL, 25_000, 20); // 2 WHBAR at 0.25
    const rejected = await alice.limit(1, BUY, 25_000, 10, { makerOnly: true });
    const partial = await alice.limit(1, BUY, 25_000, 30); // takes 2, rests 1
    await alice.request('POST', '/cancel', { orderIds: [partial.id] });
    await bob.limit(1, SELL, 26_000, 10);
    const filled = await alice.limit(1, BUY, 26_000, 10);
    const expiring = await alice.limit(1, BUY, 20_000, 10, { deadline: String(Math.floor(harness.clock.now() / 1000)) });
    harness.clock.advance(61_000);
    await harness.services.desk.expireDue();
    await eventFor(aliceBookOne, expiring.id, 'ORDER_EXPIRED');

    expect(
      eventsOf(aliceBookOne).map((event) => [event.orderId, event.type, event.status, event.reason, event.filledAmount]),
    ).toEqual([
      [String(rejected.id), 'ORDER_CREATED', 'ACTIVE', null, '0'],
      [String(rejected.id), 'ORDER_REJECTED', 'REJECTED', 'WOULD_TAKE', '0'],
      [String(partial.id), 'ORDER_CREATED', 'ACTIVE', null, '0'],
      [String(partial.id), 'ORDER_PARTIALLY_FILLED', 'PARTIALLY_FILLED', null, '2'],
      [String(partial.id), 'ORDER_CANCELED', 'CANCELED', 'USER', '2'],
      [String(filled.id), 'ORDER_CREATED', 'ACTIVE', null, '0'],
      [String(filled.id), 'ORDER_FILLED', 'FILLED', null, '1'],
      [String(expiring.id), 'ORDER_CREATED', 'ACTIVE', null, '0'],
      [String(expiring.id), 'ORDER_EXPIRED', 'EXPIRED', 'EXPIRED', '0'],
    ]);
    const fill = eventsOf(aliceBookOne).find((event) => event.type === 'ORDER_PARTIALLY_FILLED');
    expect(fill).toMatchObject({
      orderbookId: '1',
      swapper: alice.swapper,
      timestamp: expect.any(Number),
      txHash: null,
      fill: { role: 'taker', price: '0.25', amountBase: '2', baseAmount: '200000000', quoteAmount: '500000' },
    });

    // ORDER_CREATED carries the order as the live API's does.
    const created = eventsOf(aliceBookOne).filter((event) => event.type === 'ORDER_CREATED');
    expect(created[0]).toMatchObject({ orderId: String(rejected.id), makerOnly: 1, takerOnce: 0 });
    expect(created[1]).toEqual({
      seq: expect.any(Number),
      type: 'ORDER_CREATED',
      eventId: expect.any(Number),
      sequence: 1,
      orderId: String(partial.id),
      orderbookId: '1',
      timestamp: harness.clock.now() - 61_000,
      swapper: alice.swapper,
      status: 'ACTIVE',
      reason: null,
      filledAmount: '0',
      txHash: null,
      fill: null,
      side: 'buy',
      price: '0.25',
      amount: '3',
      orderType: 'LIMIT',
      expiresAt: expect.any(Number),
      makerOnly: 0,
      takerOnce: 0,
    });
    expect(created.every((event) => event.swapper === alice.swapper)).toBe(true);

    // The same events, with the same ids and sequences (each order's counted from 1), as the order's
    // history; the listing gives each order the sequence of its latest event.
    const listing = await listOrders(alice);
    for (const id of [rejected.id, partial.id, filled.id, expiring.id]) {
      const history = await alice.request<{ events: { id: string; sequence: number }[] }>('GET', `/orders/${id}/history`);
      const streamed = eventsOf(aliceBookOne).filter((event) => event.orderId === String(id));
      expect(streamed.map((event) => [String(event.eventId), event.sequence])).toEqual(
        history.body.events.map((event) => [event.id, event.sequence]),
      );
      expect(streamed.map((event) => event.sequence)).toEqual(streamed.map((_, index) => index + 1));
      expect(listing.orders.find((order) => order.id === id)?.sequence).toBe(streamed.length);
    }
    const { lastUpdateId } = listing;
    expect(eventsOf(aliceBookOne).at(-1)?.eventId).toBe(lastUpdateId);

    // Bob sees his two asks fill, and nothing of Alice's; Alice's book-2 stream sees nothing at all.
    expect(eventsOf(bobAll).map((event) => event.type)).toEqual([
      'ORDER_CREATED',
      'ORDER_FILLED',
      'ORDER_CREATED',
      'ORDER_FILLED',
    ]);
    const aliceIds = [rejected.id, partial.id, filled.id, expiring.id].map(String);
    expect(eventsOf(bobAll).every((event) => !aliceIds.includes(event.orderId))).toBe(true);
    expect(eventsOf(aliceBookTwo)).toEqual([]);
    for (const client of [aliceBookOne, aliceBookTwo, bobAll]) expect(client.seqGaps).toBe(0);
  });
});

/**
 * What a client does after a reconnect: it opens the stream first and buffers, reads `GET /orders`,
 * then applies only the events newer than the listing's `lastUpdateId`. Events carry the order's
 * state after them, so one that the listing already reflects changes nothing.
 */
class RecoveredOrders {
  readonly orders = new Map<number, { status: string; filledAmount: string }>();
  private lastUpdateId = 0;

  constructor(private readonly stream: StreamClient) {}

  async recover(trader: Trader): Promise<void> {
    const listing = await listOrders(trader);
    for (const order of listing.orders) this.orders.set(order.id, { status: order.status, filledAmount: order.filledAmount });
    this.lastUpdateId = listing.lastUpdateId;
    for (const event of eventsOf(this.stream)) this.apply(event);
    this.stream.onMessage((message) => {
      if (isEvent(message)) this.apply(message);
    });
  }

  private apply(event: UserEventMessage): void {
    if (event.eventId <= this.lastUpdateId) return;
    this.lastUpdateId = event.eventId;
    this.orders.set(Number(event.orderId), { status: event.status, filledAmount: event.filledAmount });
  }
}

describe('reconnecting to /ws/user-events', () => {
  it('re-authenticates, reconnects and recovers every cancellation with GET /orders and the stream', async () => {
    const alice = await Trader.secp256k1(harness);
    const bob = await Trader.ed25519(harness);
    const [first, second, third, fourth] = await alice.place([
      alice.limitRequest(1, BUY, 21_000, 10),
      alice.limitRequest(1, BUY, 21_300, 30), // the best bid: Bob's sell below takes from it
      alice.limitRequest(1, BUY, 21_100, 10),
      alice.limitRequest(1, BUY, 21_200, 10),
    ]);
    if (first === undefined || second === undefined || third === undefined || fourth === undefined) throw new Error('not saved');
    const before = await userEvents(alice, '1');
    await before.close();

    // While Alice is away: one of her orders is canceled, one partly filled, and her token expires.
    await alice.request('POST', '/cancel', { orderIds: [first.id] });
    await bob.limit(1, SELL, 21_300, 10);
    harness.clock.advance((harness.config.jwtTtlSeconds + 60) * 1000);
    const stale = await StreamClient.open(streamUrl(harness.url, 'user-events', { token: alice.token })).catch((error) => error);
    expect(stale).toBeInstanceOf(UpgradeRefused);
    await bob.login();

    await alice.login();
    const stream = await userEvents(alice, '1');
    const recovered = new RecoveredOrders(stream);
    // One cancellation races the recovery: it may land before or after the listing is read.
    const [cancel] = await Promise.all([alice.request('POST', '/cancel', { orderIds: [third.id] }), recovered.recover(alice)]);
    expect(cancel.status).toBe(202);
    await eventFor(stream, third.id, 'ORDER_CANCELED');
    // And one after it, which only the stream can tell.
    await alice.request('POST', '/cancel', { orderIds: [fourth.id] });
    await eventFor(stream, fourth.id, 'ORDER_CANCELED');

    expect(Object.fromEntries(recovered.orders)).toEqual({
      [first.id]: { status: 'CANCELED', filledAmount: '0' },
      [second.id]: { status: 'PARTIALLY_FILLED', filledAmount: '1' },
      [third.id]: { status: 'CANCELED', filledAmount: '0' },
      [fourth.id]: { status: 'CANCELED', filledAmount: '0' },
    });
    const listing = await listOrders(alice);
    expect(Object.fromEntries(recovered.orders)).toEqual(
      Object.fromEntries(listing.orders.map((order) => [order.id, { status: order.status, filledAmount: order.filledAmount }])),
    );
  });

  it('closes streams with 1001 when the server stops, and a client recovers after the restart', async () => {
    const alice = await Trader.secp256k1(harness);
    const resting = await alice.limit(1, BUY, 22_000, 10);
    const stream = await userEvents(alice, '1');
    await harness.restart();
    expect((await stream.closed).code).toBe(1001);

    const again = await userEvents(alice, '1');
    const recovered = new RecoveredOrders(again);
    await recovered.recover(alice);
    await alice.request('POST', '/cancel', { orderIds: [resting.id] });
    await eventFor(again, resting.id, 'ORDER_CANCELED');
    expect(recovered.orders.get(resting.id)).toEqual({ status: 'CANCELED', filledAmount: '0' });
  });
});
