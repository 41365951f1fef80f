import { BUY, SELL } from '@dex/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness, Trader, until } from '../../../test-support/harness.js';
import { StreamClient, streamUrl } from '../../../test-support/stream-client.js';
import type { UserEventMessage } from '../../ws/protocol.js';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({}, { listen: true });
});
afterAll(async () => {
  await harness.close();
});

const iso = (ms: number) => new Date(ms).toISOString();

async function cancelAfter(trader: Trader, timeoutSeconds: unknown) {
  return trader.request<{ timeoutSeconds: number; currentTime: string; triggerTime: string | null }>('POST', '/cancel/after', {
    timeoutSeconds,
  });
}

/** Status and reason of each of the trader's orders, by id. */
async function ordersOf(trader: Trader): Promise<Record<number, string>> {
  const reply = await trader.request<{ orders: { id: number; status: string; reason: string | null }[] }>(
    'GET',
    '/orders?limit=500',
  );
  return Object.fromEntries(reply.body.orders.map((order) => [order.id, `${order.status} ${order.reason ?? ''}`.trim()]));
}

/** Moves the clock past `seconds` and runs the sweep the service runs every second. */
async function expire(seconds: number): Promise<number> {
  harness.clock.advance(seconds * 1000);
  return harness.services.cancelAfter.fireDue();
}

describe('POST /cancel/after', () => {
  it('arms the switch and answers the current and trigger times', async () => {
    const trader = await Trader.secp256k1(harness);
    const now = harness.clock.now();
    const armed = await cancelAfter(trader, 60);
    expect(armed).toMatchObject({
      status: 200,
      body: { timeoutSeconds: 60, currentTime: iso(now), triggerTime: iso(now + 60_000) },
    });
    const asText = await cancelAfter(trader, '86400');
    expect(asText.body).toEqual({ timeoutSeconds: 86_400, currentTime: iso(now), triggerTime: iso(now + 86_400_000) });
    await cancelAfter(trader, 0);
  });

  it('replaces the switch when armed again: only the last trigger time counts', async () => {
    const trader = await Trader.secp256k1(harness);
    const order = await trader.limit(1, BUY, 20_000, 10);
    await cancelAfter(trader, 10);
    harness.clock.advance(5_000);
    await cancelAfter(trader, 10);
    expect(await expire(6)).toBe(0);
    expect(await ordersOf(trader)).toEqual({ [order.id]: 'ACTIVE' });
    expect(await expire(5)).toBe(1);
    expect(await ordersOf(trader)).toEqual({ [order.id]: 'CANCELED CANCEL_AFTER' });
  });

  it('disarms with 0, and then cancels nothing', async () => {
    const trader = await Trader.secp256k1(harness);
    const order = await trader.limit(1, BUY, 20_000, 10);
    await cancelAfter(trader, 10);
    const disarmed = await cancelAfter(trader, 0);
    expect(disarmed).toMatchObject({
      status: 200,
      body: { timeoutSeconds: 0, currentTime: iso(harness.clock.now()), triggerTime: null },
    });
    expect(await expire(11)).toBe(0);
    expect(await ordersOf(trader)).toEqual({ [order.id]: 'ACTIVE' });
    expect(await harness.services.store.cancelAfter.armed()).toEqual([]);
  });

  it("cancels every open order of the account on expiry, and no other account's; an order built before is void", async () => {
    const alice = await Trader.secp256k1(harness);
    const bob = await Trader.ed25519(harness);
    const [bid, ask] = await alice.place([alice.limitRequest(1, BUY, 19_000, 10), alice.limitRequest(2, SELL, 150_000, 10)]);
    const bobs = await bob.limit(1, BUY, 19_000, 10);
    const built = await alice.build([alice.limitRequest(1, BUY, 18_000, 10)]);
    const stream = await StreamClient.open(streamUrl(harness.url, 'user-events', { token: alice.token }));
    if (bid === undefined || ask === undefined) throw new Error('not saved');

    await cancelAfter(alice, 30);
    await cancelAfter(bob, 60);
    expect(await expire(30)).toBe(1);
    expect(await ordersOf(alice)).toEqual({ [bid.id]: 'CANCELED CANCEL_AFTER', [ask.id]: 'CANCELED CANCEL_AFTER' });
    expect(await ordersOf(bob)).toEqual({ [bobs.id]: 'ACTIVE' });
    const history = await alice.request<{ events: { type: string; reason: string | null }[] }>(
      'GET',
      `/orders/${bid.id}/history`,
    );
    expect(history.body.events.at(-1)).toMatchObject({ type: 'CANCELED', reason: 'CANCEL_AFTER' });
    for (const id of [bid.id, ask.id]) {
      await stream.waitFor(
        (message): message is UserEventMessage =>
          message.type === 'ORDER_CANCELED' && message.orderId === String(id) && message.reason === 'CANCEL_AFTER',
      );
    }
    await stream.close();

    const late = await alice.save(built);
    expect(late).toMatchObject({ status: 400, body: { code: 'NONCE_BELOW_FLOOR' } });
    expect((await alice.limit(1, BUY, 18_000, 10)).status).toBe('ACTIVE');
    // Fired once, then disarmed: Bob's switch is the only one left.
    expect(await harness.services.store.cancelAfter.armed()).toEqual([
      { account: bob.account, triggerAt: harness.clock.now() + 30_000 },
    ]);
    await cancelAfter(bob, 0);
  });

  it('keeps an armed switch across a restart, and fires one whose time passed while the service was down', async () => {
    const alice = await Trader.secp256k1(harness);
    const bob = await Trader.secp256k1(harness);
    const aliceOrder = await alice.limit(1, BUY, 17_000, 10);
    const bobOrder = await bob.limit(1, BUY, 17_000, 10);
    await cancelAfter(alice, 60);
    await cancelAfter(bob, 120);

    await harness.restart(() => harness.clock.advance(61_000));
    // Before any sweep could run: the start fired it.
    expect(await ordersOf(alice)).toEqual({ [aliceOrder.id]: 'CANCELED CANCEL_AFTER' });
    expect(await ordersOf(bob)).toEqual({ [bobOrder.id]: 'ACTIVE' });

    harness.clock.advance(60_000);
    // The service's own sweep, on its clock.
    await until(async () => ((await ordersOf(bob))[bobOrder.id] === 'CANCELED CANCEL_AFTER' ? true : undefined), 'the sweep');
    expect(await harness.services.store.cancelAfter.armed()).toEqual([]);
  });

  it.each([
    ['negative', { timeoutSeconds: -1 }],
    ['over a day', { timeoutSeconds: 86_401 }],
    ['over a day, as text', { timeoutSeconds: '86401' }],
    ['a fraction', { timeoutSeconds: 1.5 }],
    ['a fraction, as text', { timeoutSeconds: '1.5' }],
    ['not a number', { timeoutSeconds: 'soon' }],
    ['a boolean', { timeoutSeconds: true }],
    ['null', { timeoutSeconds: null }],
    ['missing', {}],
    ['with another field', { timeoutSeconds: 10, orderbookId: 1 }],
  ])('refuses a body with timeoutSeconds %s with 400 and the common error body', async (_case, body) => {
    const trader = await Trader.secp256k1(harness);
    const reply = await trader.request('POST', '/cancel/after', body);
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ error: expect.any(String), code: 'VALIDATION_FAILED' });
    expect(await harness.services.store.cancelAfter.armed()).toEqual([]);
  });

  it('needs a JWT', async () => {
    const reply = await harness.app.inject({ method: 'POST', url: '/cancel/after', payload: { timeoutSeconds: 10 } });
    expect(reply.statusCode).toBe(401);
    expect(reply.json()).toEqual({ error: expect.any(String), code: 'MISSING_AUTHORIZATION' });
  });
});
