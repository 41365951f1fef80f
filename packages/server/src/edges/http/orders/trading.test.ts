import { BUY, SELL } from '@dex/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEVNET_ADDRESS, type Harness, startHarness, Trader } from '../../../test-support/harness.js';

const { WHBAR, USDC } = DEVNET_ADDRESS;

let harness: Harness;
let maker: Trader;
let taker: Trader;

beforeEach(async () => {
  harness = await startHarness();
  maker = await Trader.secp256k1(harness);
  taker = await Trader.ed25519(harness);
});
afterEach(async () => {
  await harness.close();
});

interface ListedOrder {
  id: number;
  status: string;
  reason: string | null;
  percentFilled: string;
  price: string;
  amount: string;
  filledAmount: string;
  total: string;
  direction: string;
  pair: string;
  type: string;
  ocoLinkedOrderId: number | null;
}

interface HistoryEvent {
  type: string;
  reason: string | null;
  fill: { role: string; price: string; amountBase: string; baseAmount: string; quoteAmount: string } | null;
}

async function orders(who: Trader, query = ''): Promise<{ orders: ListedOrder[]; total: number; lastUpdateId: number }> {
  const reply = await who.request<{ orders: ListedOrder[]; total: number; lastUpdateId: number }>('GET', `/orders${query}`);
  expect(reply.status).toBe(200);
  return reply.body;
}

async function history(who: Trader, id: number): Promise<HistoryEvent[]> {
  const reply = await who.request<{ events: HistoryEvent[]; orderId: number; orderbookId: string; total: number }>(
    'GET',
    `/orders/${id}/history`,
  );
  expect(reply.status).toBe(200);
  expect(reply.body).toMatchObject({ orderId: id, orderbookId: '1', total: reply.body.events.length, page: 1, limit: 100 });
  return reply.body.events;
}

describe('matching real orders', () => {
  it('fills a crossing order at the maker price and updates depth, tape, orders and history', async () => {
    const ask = await maker.limit(1, SELL, 25_000, 30); // 3 WHBAR at 0.25
    const bid = await taker.limit(1, BUY, 25_100, 10); // 1 WHBAR up to 0.251
    expect(bid.status).toBe('FILLED');
    expect(bid.filledAmount).toBe('250000'); // 0.25 USDC spent at the maker's price

    const depth = await maker.request<{ asks: string[][]; bids: string[][] }>('GET', '/depth/1');
    expect(depth.body).toMatchObject({ asks: [['0.25', '2']], bids: [] });
    const tape = await maker.request<{ trades: unknown[] }>('GET', '/trades/1');
    expect(tape.body.trades).toEqual([expect.objectContaining({ price: '0.25', amountBase: '1', direction: 'buy' })]);

    const [makerOrder] = (await orders(maker)).orders;
    expect(makerOrder).toMatchObject({
      id: ask.id,
      status: 'PARTIALLY_FILLED',
      percentFilled: '33.33',
      price: '0.25',
      amount: '3',
      filledAmount: '1',
      total: '0.75',
      direction: 'sell',
      pair: 'WHBAR/USDC',
      type: 'LIMIT',
      // The live API's types: ids and deadlines as text, ISO-8601 times.
      orderbookId: '1',
      createdAt: new Date(harness.clock.now()).toISOString(),
      updatedAt: new Date(harness.clock.now()).toISOString(),
      deadline: expect.stringMatching(/^[1-9][0-9]*$/),
      hcsInitialTransactionId: null,
    });
    expect(await history(maker, ask.id)).toEqual([
      expect.objectContaining({ type: 'CREATED', fill: null }),
      expect.objectContaining({
        type: 'PARTIAL_FILL',
        fill: expect.objectContaining({
          role: 'maker',
          price: '0.25',
          amountBase: '1',
          baseAmount: '100000000',
          quoteAmount: '250000',
        }),
      }),
    ]);
    expect((await history(taker, bid.id)).map((event) => [event.type, event.fill?.role ?? null])).toEqual([
      ['CREATED', null],
      ['FILLED', 'taker'],
    ]);
  });

  it("pages an order's history, oldest first, with string event ids as the live API sends them", async () => {
    const ask = await maker.limit(1, SELL, 25_000, 30);
    await taker.limit(1, BUY, 25_000, 10);
    await taker.limit(1, BUY, 25_000, 10);
    const all = await maker.request<{ events: { id: string; type: string; htsResponseCode: null }[]; total: number }>(
      'GET',
      `/orders/${ask.id}/history`,
    );
    expect(all.body.events.map((event) => event.type)).toEqual(['CREATED', 'PARTIAL_FILL', 'PARTIAL_FILL']);
    expect(all.body.events.every((event) => /^[1-9][0-9]*$/.test(event.id) && event.htsResponseCode === null)).toBe(true);
    const second = await maker.request<{ events: { id: string }[]; total: number; page: number; limit: number }>(
      'GET',
      `/orders/${ask.id}/history?page=2&limit=1`,
    );
    expect(second.body).toMatchObject({ total: 3, page: 2, limit: 1, events: [{ id: all.body.events[1]?.id }] });
    const beyond = await maker.request<{ events: unknown[]; total: number }>('GET', `/orders/${ask.id}/history?page=9&limit=1`);
    expect(beyond.body).toMatchObject({ events: [], total: 3 });
    expect((await maker.request('GET', `/orders/${ask.id}/history?limit=-1`)).body).toMatchObject({
      code: 'NEGATIVE_PAGINATION',
    });
  });

  it('rejects a makerOnly order that would take, and records why', async () => {
    await maker.limit(1, SELL, 25_000, 10);
    const rejected = await taker.limit(1, BUY, 25_000, 10, { makerOnly: true });
    expect(rejected).toMatchObject({ status: 'REJECTED', reason: 'WOULD_TAKE' });
    expect((await history(taker, rejected.id)).map((event) => [event.type, event.reason])).toEqual([
      ['CREATED', null],
      ['REJECTED', 'WOULD_TAKE'],
    ]);
    expect((await maker.request<{ asks: string[][] }>('GET', '/depth/1')).body.asks).toEqual([['0.25', '1']]);
  });

  it('takes once with takerOnce and rests the rest when it no longer crosses', async () => {
    await maker.place([maker.limitRequest(1, SELL, 25_000, 10), maker.limitRequest(1, SELL, 25_000, 10)]);
    const bid = await taker.limit(1, BUY, 25_000, 30, { takerOnce: true });
    expect(bid).toMatchObject({ status: 'CANCELED', reason: 'TAKER_ONCE' });
    const [listed] = (await orders(taker)).orders;
    expect(listed).toMatchObject({ percentFilled: '33.33', filledAmount: '1' });
  });

  it('fills a market buy from its quote budget and a market sell down to its limit', async () => {
    await maker.place([maker.limitRequest(1, SELL, 25_000, 10), maker.limitRequest(1, SELL, 26_000, 10)]);
    await maker.limit(1, BUY, 24_000, 50);
    // 0.4 USDC buys 1 WHBAR at 0.25 and 0.5 WHBAR at 0.26 (0.13 USDC); 0.02 USDC stays unspent.
    const [buy, sell] = await taker.place([
      { orderbookId: 1, type: 'MARKET', inputToken: USDC, inputAmount: '400000', outputToken: WHBAR, outputAmount: '1' },
      { orderbookId: 1, type: 'MARKET', inputToken: WHBAR, inputAmount: '200000000', outputToken: USDC, outputAmount: '1' },
    ]);
    expect(buy).toMatchObject({ status: 'FILLED', filledAmount: '380000' });
    expect(sell).toMatchObject({ status: 'FILLED', filledAmount: '200000000' });
    const listed = (await orders(taker, '?status=FILLED')).orders;
    expect(listed.map((order) => [order.direction, order.price, order.amount, order.total])).toEqual([
      ['sell', '0.24', '2', '0.48'],
      ['buy', '0.25333', '1.5', '0.38'],
    ]);
  });

  it('cancels the unfilled rest of a market order', async () => {
    await maker.limit(1, SELL, 25_000, 10);
    const [sell] = await taker.place([
      { orderbookId: 1, type: 'MARKET', inputToken: WHBAR, inputAmount: '100000000', outputToken: USDC, outputAmount: '1' },
    ]);
    expect(sell).toMatchObject({ status: 'CANCELED', reason: 'IMMEDIATE_OR_CANCEL', filledAmount: '0' });
    const [buy] = await taker.place([
      { orderbookId: 1, type: 'MARKET', inputToken: USDC, inputAmount: '500000', outputToken: WHBAR, outputAmount: '1' },
    ]);
    expect(buy).toMatchObject({ status: 'FILLED', filledAmount: '250000' });
  });

  it('filters the order list by status and book and pages it newest first', async () => {
    const ids = (
      await maker.place([
        maker.limitRequest(1, SELL, 30_000, 10),
        maker.limitRequest(1, SELL, 31_000, 10),
        maker.limitRequest(1, SELL, 32_000, 10),
      ])
    ).map((meta) => meta.id);
    await maker.request('POST', '/cancel', { orderIds: [ids[0]] });
    const active = (await orders(maker, '?status=ACTIVE')).orders;
    expect(active.map((order) => [order.id, order.status])).toEqual([
      [ids[2], 'ACTIVE'],
      [ids[1], 'ACTIVE'],
    ]);
    // The older word and the other spelling still filter.
    expect((await orders(maker, '?status=OPEN')).orders.map((order) => order.id)).toEqual([ids[2], ids[1]]);
    expect((await orders(maker, '?status=canceled')).orders.map((order) => order.id)).toEqual([ids[0]]);
    expect((await orders(maker, '?status=CANCELLED,active')).total).toBe(3);
    expect((await orders(maker, '?orderbookId=1&limit=1&page=2')).orders.map((order) => order.id)).toEqual([ids[1]]);
    expect((await orders(maker, '?orderbookId=2')).total).toBe(0);
    expect((await orders(taker)).total).toBe(0);
    expect((await maker.request('GET', '/orders?status=DONE')).status).toBe(400);
    expect((await maker.request('GET', '/orders?orderbookId=42')).status).toBe(400);
  });

  it('reports the id of the latest order event reflected in the list', async () => {
    expect((await orders(maker)).lastUpdateId).toBe(0);
    await maker.limit(1, SELL, 25_000, 10);
    const first = (await orders(maker)).lastUpdateId;
    await taker.limit(1, BUY, 25_000, 5);
    expect((await orders(maker)).lastUpdateId).toBeGreaterThan(first);
  });

  it("answers 404 for another account's order history, an unknown id and a malformed one", async () => {
    const ask = await maker.limit(1, SELL, 25_000, 10);
    for (const url of [`/orders/${ask.id}/history`, '/orders/999999/history', '/orders/abc/history', '/orders/01/history']) {
      const reply = await taker.request('GET', url);
      expect(reply.status).toBe(404);
      expect(reply.body).toMatchObject({ code: 'ORDER_NOT_FOUND' });
    }
  });
});

describe('OCO links', () => {
  async function bracket() {
    const built = await maker.build([maker.limitRequest(1, SELL, 30_000, 10), maker.limitRequest(1, BUY, 20_000, 10)]);
    const reply = await maker.save(built, [{ a: 0, b: 1 }]);
    expect(reply.status).toBe(200);
    const [high, low] = reply.body.orders.map((order) => Number(order.meta.id)) as [number, number];
    expect(reply.body).toMatchObject({ oco: { links: [{ a: high, b: low }] } });
    return { high, low };
  }

  it('links both orders and cancels one with reason OCO when the other fills', async () => {
    const { high, low } = await bracket();
    const listed = (await orders(maker)).orders;
    expect(listed.map((order) => [order.id, order.ocoLinkedOrderId])).toEqual([
      [low, high],
      [high, low],
    ]);
    await taker.limit(1, BUY, 30_000, 4); // partly fills the high one
    const after = new Map((await orders(maker)).orders.map((order) => [order.id, order]));
    expect(after.get(high)).toMatchObject({ status: 'PARTIALLY_FILLED' });
    expect(after.get(low)).toMatchObject({ status: 'CANCELED', reason: 'OCO' });
    expect((await history(maker, low)).at(-1)).toMatchObject({ type: 'CANCELED', reason: 'OCO' });
    expect((await maker.request<{ bids: unknown[] }>('GET', '/depth/1')).body.bids).toEqual([]);
  });

  it('cancels the partner with reason OCO when one is cancelled', async () => {
    const { high, low } = await bracket();
    const reply = await maker.request('POST', '/cancel', { orderIds: [high] });
    expect(reply.body).toMatchObject({ accepted: [high] });
    const after = new Map((await orders(maker)).orders.map((order) => [order.id, order]));
    expect(after.get(high)).toMatchObject({ status: 'CANCELED', reason: 'USER' });
    expect(after.get(low)).toMatchObject({ status: 'CANCELED', reason: 'OCO' });
  });

  it('cancels the second order of a pair when the first fills as it is placed', async () => {
    await taker.limit(1, SELL, 25_000, 10);
    const built = await maker.build([maker.limitRequest(1, BUY, 25_000, 10), maker.limitRequest(1, SELL, 40_000, 10)]);
    const reply = await maker.save(built, [{ a: 0, b: 1 }]);
    expect(reply.body.orders.map((order) => [order.meta.status, order.meta.reason])).toEqual([
      ['FILLED', null],
      ['CANCELED', 'OCO'],
    ]);
    expect((await maker.request<{ asks: unknown[] }>('GET', '/depth/1')).body.asks).toEqual([]);
  });

  it.each([
    ['an index outside the batch', [{ a: 0, b: 2 }]],
    ['an order linked to itself', [{ a: 0, b: 0 }]],
    [
      'an order in two links',
      [
        { a: 0, b: 1 },
        { a: 1, b: 0 },
      ],
    ],
  ])('answers 400 INVALID_OCO_LINK for %s', async (_name, links) => {
    const built = await maker.build([maker.limitRequest(1, SELL, 30_000, 10), maker.limitRequest(1, BUY, 20_000, 10)]);
    const reply = await maker.save(built, links);
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ code: 'INVALID_OCO_LINK' });
    expect((await orders(maker)).total).toBe(0);
  });

  it('answers 400 INVALID_OCO_LINK for a MARKET order or orders of two books', async () => {
    const built = await maker.build([
      maker.limitRequest(1, SELL, 30_000, 10),
      { orderbookId: 1, type: 'MARKET', inputToken: WHBAR, inputAmount: '100000000', outputToken: USDC, outputAmount: '1' },
      maker.limitRequest(2, SELL, 100_000, 10),
    ]);
    expect((await maker.save(built, [{ a: 0, b: 1 }])).body).toMatchObject({ code: 'INVALID_OCO_LINK' });
    expect((await maker.save(built, [{ a: 0, b: 2 }])).body).toMatchObject({ code: 'INVALID_OCO_LINK' });
  });
});
