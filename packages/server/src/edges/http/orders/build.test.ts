import { BUY, orderTypedData, parseWireOrder, SELL } from '@dex/core';
import { hashTypedData } from 'viem';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEVNET_ADDRESS, type Harness, startHarness, Trader, wireOf } from '../../../test-support/harness.js';

const { WHBAR, USDC, SAUCE } = DEVNET_ADDRESS;
const DAY = 24 * 60 * 60;

let harness: Harness;
let trader: Trader;
let now: number;

beforeEach(async () => {
  harness = await startHarness();
  trader = await Trader.secp256k1(harness);
  now = Math.floor(harness.clock.now() / 1000);
});
afterEach(async () => {
  await harness.close();
});

/** 1 WHBAR for 0.25 USDC on book 1. */
const sellOne = {
  orderbookId: 1,
  type: 'LIMIT' as const,
  inputToken: WHBAR,
  inputAmount: '100000000',
  outputToken: USDC,
  outputAmount: '250000',
};

async function buildError(requests: unknown, body = { orderRequests: requests }) {
  const reply = await trader.request('POST', '/orders/build', body);
  return { status: reply.status, ...(reply.body as { error: string; code: string; index?: number }) };
}

describe('POST /orders/build', () => {
  it('returns the typed data to sign for the account, with the book, the side and the digest', async () => {
    const [order] = await trader.build([{ ...sellOne, deadline: String(now + DAY) }]);
    const { domain } = harness.services;
    expect(order).toMatchObject({
      info: {
        reactor: domain.verifyingContract.toLowerCase(),
        swapper: trader.account,
        deadline: String(now + DAY),
        additionalValidationContract: '0x0000000000000000000000000000000000000000',
        additionalValidationData: '0x',
      },
      input: { token: WHBAR.toLowerCase(), amount: '100000000' },
      output: { token: USDC.toLowerCase(), amount: '250000', recipient: trader.account },
      makerOnly: false,
      takerOnce: false,
      maxTakerFeePips: 1_000,
      maxMakerFeePips: 0,
      meta: { orderbookId: '1', type: 'LIMIT', side: 'sell', isAMMEnabled: false },
    });
    expect(order?.info.nonce).toMatch(/^[1-9][0-9]*$/);
  });

  it('gives a digest equal to viem hashTypedData of the built order in the served domain', async () => {
    const [order] = await trader.build([sellOne]);
    if (order === undefined) throw new Error('no order');
    const domainReply = await trader.request<{
      name: string;
      version: string;
      chainId: number;
      verifyingContract: `0x${string}`;
    }>('GET', '/signature/domain');
    const digest = hashTypedData(orderTypedData(domainReply.body, parseWireOrder(wireOf(order))));
    expect(order.meta.orderHash).toBe(digest);
  });

  it('assigns strictly increasing nonces across and within requests', async () => {
    const first = await trader.build([sellOne, sellOne, sellOne]);
    const second = await trader.build([sellOne]);
    const nonces = [...first, ...second].map((order) => BigInt(order.info.nonce));
    for (let index = 1; index < nonces.length; index++) expect(nonces[index]).toBeGreaterThan(nonces[index - 1] as bigint);
  });

  it('accepts a bare array as well as {orderRequests}', async () => {
    const reply = await trader.request<{ orders: unknown[] }>('POST', '/orders/build', [sellOne, sellOne]);
    expect(reply.status).toBe(200);
    expect(reply.body.orders).toHaveLength(2);
  });

  it.each<[string, (now: number) => number, (now: number) => number]>([
    ['a deadline under a minute', (now) => now + 10, (now) => now + 60],
    ['a deadline in the past', () => 1, (now) => now + 60],
    ['a deadline beyond 90 days', (now) => now + 91 * DAY, (now) => now + 90 * DAY],
  ])('clamps %s into the allowed window', async (_name, asked, expected) => {
    const [order] = await trader.build([{ ...sellOne, deadline: String(asked(now)) }]);
    expect(order?.info.deadline).toBe(String(expected(now)));
  });

  it('gives a limit order without a deadline the longest one allowed and a market order a short one', async () => {
    const [limit, market] = await trader.build([
      sellOne,
      { ...sellOne, type: 'MARKET', outputAmount: '1', deadline: String(now + DAY) },
    ]);
    expect(limit?.info.deadline).toBe(String(now + 90 * DAY));
    expect(market?.info.deadline).toBe(String(now + 300));
  });

  it("sets the fee caps from the account's override when the operator set one", async () => {
    await harness.services.store.feeOverrides.set({
      account: trader.account,
      bookId: 1,
      takerFeePips: 250,
      makerFeePips: 10,
      capFractionPips: 0,
      updatedAt: harness.clock.now(),
    });
    const [order] = await trader.build([sellOne]);
    expect(order).toMatchObject({ maxTakerFeePips: 250, maxMakerFeePips: 10 });
  });

  it('keeps a recipient and the makerOnly and takerOnce flags', async () => {
    const recipient = '0x000000000000000000000000000000000000dEaD';
    const [order] = await trader.build([{ ...sellOne, recipient, makerOnly: true, takerOnce: true }]);
    expect(order).toMatchObject({ output: { recipient: recipient.toLowerCase() }, makerOnly: true, takerOnce: true });
  });

  it('takes the flags as 1 and 0 too, as GET /books serves its own, and signs them as booleans', async () => {
    const [book] = (await trader.request<{ orderbooks: { isAMMEnabled: 0 | 1 }[] }>('GET', '/books')).body.orderbooks;
    const [set, unset] = await trader.build([
      { ...sellOne, makerOnly: 1, takerOnce: 1, isAMMEnabled: book?.isAMMEnabled ?? 1 },
      { ...sellOne, makerOnly: 0, takerOnce: 0, isAMMEnabled: 0 },
    ]);
    // Book 1 routes into its pool, so the echoed flag opts in.
    expect(set).toMatchObject({ makerOnly: true, takerOnce: true, meta: { isAMMEnabled: true } });
    expect(unset).toMatchObject({ makerOnly: false, takerOnce: false, meta: { isAMMEnabled: false } });
  });

  it.each([
    ['an unknown book', { orderbookId: 99 }, 'UNKNOWN_ORDERBOOK'],
    ['a book id that is no number', { orderbookId: 'one' }, 'UNKNOWN_ORDERBOOK'],
    ['tokens of another book', { inputToken: SAUCE }, 'TOKEN_NOT_IN_BOOK'],
    ['the same token twice', { outputToken: WHBAR }, 'TOKEN_NOT_IN_BOOK'],
    ['a size off the size grid', { inputAmount: '100000001' }, 'ORDER_OFF_GRID'],
    ['a size below the lot', { inputAmount: '0', outputAmount: '1' }, 'INVALID_AMOUNT'],
    ['a value below the minimum notional', { inputAmount: '10000000', outputAmount: '1' }, 'ORDER_TOO_SMALL'],
    ['a makerOnly market order', { type: 'MARKET', makerOnly: true }, 'INVALID_ORDER'],
    ['an AMM opt-in (book 1 routes into its pool)', { isAMMEnabled: true }, null],
  ])('answers 400 naming the item for %s', async (_name, change, code) => {
    const result = await buildError([sellOne, { ...sellOne, ...change }]);
    if (code === null) {
      expect(result.status).toBe(200);
      return;
    }
    expect(result).toMatchObject({ status: 400, code, index: 1 });
    expect(result.error).toMatch(/^orderRequests\[1\]: /);
  });

  it.each([
    ['an exponent amount', { inputAmount: '1e8' }],
    ['a negative amount', { inputAmount: '-1' }],
    ['a hex amount', { inputAmount: '0x10' }],
    ['an amount above uint256', { inputAmount: '1'.padEnd(79, '0') }],
    ['a bad token address', { inputToken: '0x1234' }],
    ['an unknown field', { price: '0.25' }],
    ['a flag of 2', { makerOnly: 2 }],
    ['a flag as text', { takerOnce: 'true' }],
    ['an unknown type', { type: 'STOP' }],
    ['a deadline that is not unix seconds', { deadline: 'tomorrow' }],
  ])('answers 400 for %s', async (_name, change) => {
    expect((await buildError([{ ...sellOne, ...change }])).status).toBe(400);
  });

  it('answers 400 for an empty batch and for more than 250 orders', async () => {
    expect(await buildError([])).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
    expect(await buildError(Array.from({ length: 251 }, () => sellOne))).toMatchObject({
      status: 400,
      code: 'VALIDATION_FAILED',
    });
    expect(
      (
        await trader.request<{ orders: unknown[] }>(
          'POST',
          '/orders/build',
          Array.from({ length: 250 }, () => sellOne),
        )
      ).status,
    ).toBe(200);
  });

  it('answers 400 for a halted book and a closed one', async () => {
    const { store, registry } = harness.services;
    await store.books.update(2, { isHalted: true }, harness.clock.now());
    await store.books.update(3, { status: 'CLOSED' }, harness.clock.now());
    await registry.load();
    const sauce = { ...sellOne, inputToken: SAUCE, inputAmount: '10000000', outputAmount: '1000000' };
    expect(await buildError([{ ...sauce, orderbookId: 2 }])).toMatchObject({ status: 400, code: 'MARKET_HALTED' });
    expect(await buildError([{ ...sauce, orderbookId: 3, outputToken: WHBAR }])).toMatchObject({
      status: 400,
      code: 'MARKET_CLOSED',
    });
  });

  it('answers 401 without a token, before reading the body', async () => {
    const response = await harness.app.inject({ method: 'POST', url: '/orders/build', payload: '{"broken' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ error: 'Missing Authorization header', code: 'MISSING_AUTHORIZATION' });
  });

  it('prices a buy of 2 WHBAR at 0.25 like the trader fixture does', async () => {
    const [order] = await trader.build([trader.limitRequest(1, BUY, 25_000, 20)]);
    expect(order).toMatchObject({ input: { amount: '500000' }, output: { amount: '200000000' }, meta: { side: 'buy' } });
    const [sell] = await trader.build([trader.limitRequest(1, SELL, 25_000, 20)]);
    expect(sell?.meta.side).toBe('sell');
  });
});
