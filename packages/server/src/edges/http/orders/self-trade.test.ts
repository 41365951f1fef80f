import { BUY, SELL } from '@dex/core';
import type { UserEventMessage } from '@dex/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness, Trader } from '../../../test-support/harness.js';
import { StreamClient, streamUrl } from '../../../test-support/stream-client.js';

/**
 * Self-trade prevention over HTTP and the user stream: an account's order never trades with its
 * own resting order, whichever of its names saved either; the mode travels with the save.
 */

let h: Harness;
beforeAll(async () => {
  h = await startHarness({}, { listen: true });
});
afterAll(async () => {
  await h?.close();
});

type Saved = { orders: { meta: { id: string; status: string; reason: string | null; selfTradePrevention: string } }[] };

async function saveWith(trader: Trader, request: ReturnType<Trader['limitRequest']>, selfTradePrevention?: string) {
  const [item] = await trader.items(await trader.build([request]));
  return trader.request<Saved>('POST', '/orders/save', {
    items: [selfTradePrevention === undefined ? item : { ...item, selfTradePrevention }],
  });
}

async function tapeOf(bookId: number): Promise<unknown[]> {
  return ((await fetch(`${h.url}/trades/${bookId}`)).json() as Promise<{ trades: unknown[] }>).then((body) => body.trades);
}

describe('self-trade prevention', () => {
  it("cancels the account's resting order that its own order meets (EXPIRE_MAKER), tells the stream, and trades nothing", async () => {
    const trader = await Trader.secp256k1(h);
    const stream = await StreamClient.open(streamUrl(h.url, 'user-events', { token: trader.token }));
    try {
      const tapeBefore = (await tapeOf(2)).length;
      const resting = await saveWith(trader, trader.limitRequest(2, SELL, 50_000, 10));
      const restingId = resting.body.orders[0]?.meta.id;
      const taker = await saveWith(trader, trader.limitRequest(2, BUY, 50_000, 10));
      expect(taker.body.orders[0]?.meta).toMatchObject({ status: 'ACTIVE', selfTradePrevention: 'EXPIRE_MAKER' });
      const canceled = (await stream.waitFor(
        (message) =>
          (message as UserEventMessage).type === 'ORDER_CANCELED' && (message as UserEventMessage).orderId === restingId,
      )) as UserEventMessage;
      expect(canceled).toMatchObject({ reason: 'SELF_TRADE' });
      expect((await tapeOf(2)).length).toBe(tapeBefore);
      const history = await trader.request<{ events: { type: string; reason: string | null }[] }>(
        'GET',
        `/orders/${restingId}/history`,
      );
      expect(history.body.events.map((event) => [event.type, event.reason])).toEqual([
        ['CREATED', null],
        ['CANCELED', 'SELF_TRADE'],
      ]);
    } finally {
      await stream.close();
    }
  });

  it('cancels the incoming order instead with EXPIRE_TAKER, sent with the save', async () => {
    const trader = await Trader.secp256k1(h);
    const resting = await saveWith(trader, trader.limitRequest(3, SELL, 2_500, 10));
    const taker = await saveWith(trader, trader.limitRequest(3, BUY, 2_500, 10), 'EXPIRE_TAKER');
    expect(taker.body.orders[0]?.meta).toMatchObject({
      status: 'CANCELED',
      reason: 'SELF_TRADE',
      selfTradePrevention: 'EXPIRE_TAKER',
    });
    const listed = await trader.request<{ orders: { id: number; status: string }[] }>('GET', '/orders');
    expect(listed.body.orders.find((order) => String(order.id) === resting.body.orders[0]?.meta.id)?.status).toBe('ACTIVE');
  });

  it('refuses a mode it does not know, in words', async () => {
    const trader = await Trader.secp256k1(h);
    const refused = await saveWith(trader, trader.limitRequest(3, SELL, 2_600, 10), 'NONE');
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      error: 'body.items[0].selfTradePrevention must be EXPIRE_MAKER, EXPIRE_TAKER or EXPIRE_BOTH',
      code: 'VALIDATION_FAILED',
    });
  });

  it('still trades between two accounts', async () => {
    const [maker, taker] = [await Trader.secp256k1(h), await Trader.secp256k1(h)];
    await saveWith(maker, maker.limitRequest(3, SELL, 2_700, 10));
    const taken = await saveWith(taker, taker.limitRequest(3, BUY, 2_700, 10));
    expect(taken.body.orders[0]?.meta.status).toBe('FILLED');
  });
});
