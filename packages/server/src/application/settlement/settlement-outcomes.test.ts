import { BUY, SELL } from '@dex/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FailedFill } from '../../ports/settlement-desk.js';
import type { UnsettledTrade } from '../../ports/store/settlement-ports.js';
import { type DeskParts, limitCandidate, openDeskParts } from '../../test-support/desk-parts.js';
import { describeEachEngine } from '../../test-support/store-engines.js';

describeEachEngine('settlement outcomes on the store', (stores) => {
  let desk: DeskParts;

  beforeEach(async () => {
    desk = await openDeskParts({ openStore: stores.open });
  });
  afterEach(async () => {
    await desk.close();
  });

  /** The failure of a trade between two orders of the book. */
  type BookFailure = FailedFill & { readonly makerOrderId: number };

  /** A resting sell of 10 steps and a buy that takes `steps` of it: the trade, as the settler would report its failure. */
  async function trade(steps: number, culprit: FailedFill['culprit']): Promise<BookFailure> {
    const [ask] = (await desk.nonces('0.0.7', 1)) as [bigint];
    const [bid] = (await desk.nonces('0.0.8', 1)) as [bigint];
    await desk.trading.accept('0.0.7', [limitCandidate('0.0.7', SELL, 25_000, 10, ask)]);
    await desk.trading.accept('0.0.8', [limitCandidate('0.0.8', BUY, 25_000, steps, bid)]);
    const [pending] = await desk.store.settlements.pending(10);
    if (pending === undefined) throw new Error('no trade');
    return failureOf(pending, culprit, culprit === null ? 'SETTLEMENT_FAILED' : 'INSUFFICIENT_FUNDS');
  }

  /** A queued trade's failure, as the settler reports it. */
  function failureOf(pending: UnsettledTrade, culprit: FailedFill['culprit'], reason: FailedFill['reason']): BookFailure {
    if (pending.maker === null) throw new Error('a swap with the pool');
    return {
      tradeId: pending.tradeId,
      bookId: pending.bookId,
      makerOrderId: pending.maker.orderId,
      takerOrderId: pending.taker.orderId,
      price: pending.price,
      baseAmount: pending.baseAmount,
      quoteAmount: pending.quoteAmount,
      culprit,
      reason,
    };
  }

  describe('settlement outcomes', () => {
    it('cancels the order at fault and gives the resting counterparty its quantity back, stored before it answers', async () => {
      const failure = await trade(4, 'taker');
      await desk.trading.unwindFills([failure]);
      const maker = desk.books.live.get(failure.makerOrderId);
      expect(maker).toMatchObject({ filledSteps: 0, status: 'OPEN' });
      const taker = await desk.store.orders.get(failure.takerOrderId);
      expect(taker).toMatchObject({ status: 'CANCELED', reason: 'INSUFFICIENT_FUNDS', filledSteps: 0 });
      expect(await desk.store.settlements.unsettled([failure.tradeId])).toEqual(new Set());
    });

    it('places a limit order the failed trade had completed back on its book', async () => {
      const failure = await trade(10, 'taker');
      expect(desk.books.live.get(failure.makerOrderId)).toBeUndefined();
      await desk.trading.unwindFills([failure]);
      expect(desk.books.live.get(failure.makerOrderId)).toMatchObject({ status: 'OPEN', filledSteps: 0 });
    });

    it('changes nothing when the same failure is reported again', async () => {
      const failure = await trade(4, 'maker');
      await desk.trading.unwindFills([failure]);
      const commits = desk.commits.length;
      await desk.trading.unwindFills([failure]);
      expect(desk.commits.slice(commits).flatMap((commit) => commit.orderEvents)).toEqual([]);
      expect((await desk.store.orders.get(failure.makerOrderId))?.status).toBe('CANCELED');
    });

    it('records a FILL_REVERTED event on both orders with the reason and the quantity given back', async () => {
      const failure = await trade(4, 'taker');
      const commits = desk.commits.length;
      await desk.trading.unwindFills([failure]);
      const types = async (id: number) => (await desk.store.orders.history(id)).map((event) => event.type);
      expect(await types(failure.makerOrderId)).toEqual(['CREATED', 'PARTIAL_FILL', 'FILL_REVERTED']);
      expect(await types(failure.takerOrderId)).toEqual(['CREATED', 'FILLED', 'FILL_REVERTED', 'CANCELED']);
      const [reverted] = (await desk.store.orders.history(failure.takerOrderId)).filter(
        (event) => event.type === 'FILL_REVERTED',
      );
      expect(reverted).toMatchObject({
        reason: 'INSUFFICIENT_FUNDS',
        txHash: null,
        fill: { tradeId: failure.tradeId, baseAmount: failure.baseAmount, quoteAmount: failure.quoteAmount, role: 'taker' },
      });
      // The stream is told the status and filled size each order has after the event.
      const told = desk.commits.slice(commits).flatMap((commit) => commit.orderEvents);
      expect(told.map(({ orderId, type, status, filledSteps }) => ({ orderId, type, status, filledSteps }))).toEqual([
        { orderId: failure.makerOrderId, type: 'FILL_REVERTED', status: 'OPEN', filledSteps: 0 },
        { orderId: failure.takerOrderId, type: 'FILL_REVERTED', status: 'OPEN', filledSteps: 0 },
        { orderId: failure.takerOrderId, type: 'CANCELED', status: 'CANCELED', filledSteps: 0 },
      ]);
      expect(told[0]?.fill).toMatchObject({ tradeId: failure.tradeId, price: failure.price, role: 'maker' });
    });

    it('takes a reverted trade off the tape and rebuilds its candle from the trades it keeps', async () => {
      const first = await trade(4, 'taker');
      const [bid] = (await desk.nonces('0.0.9', 1)) as [bigint];
      await desk.trading.accept('0.0.9', [limitCandidate('0.0.9', BUY, 25_000, 2, bid)]);
      const before = await desk.store.trades.windowStats(1, 0);
      expect(before.tradeCount).toBe(2);
      await desk.trading.unwindFills([first]);
      const tape = await desk.store.trades.page(1, 'desc', 0, 10);
      expect(tape.total).toBe(1);
      expect(tape.trades.map((each) => each.id)).not.toContain(first.tradeId);
      const after = await desk.store.trades.windowStats(1, 0);
      expect(after).toMatchObject({
        tradeCount: 1,
        baseVolume: before.baseVolume - first.baseAmount,
        quoteVolume: before.quoteVolume - first.quoteAmount,
      });
      expect((await desk.store.trades.latest(1))?.id).not.toBe(first.tradeId);
    });

    it('keeps a cancelled order cancelled with the smaller fill when its fill is reverted', async () => {
      const failure = await trade(4, null);
      await desk.trading.cancel('0.0.7', [failure.makerOrderId]);
      expect((await desk.store.orders.get(failure.makerOrderId))?.status).toBe('CANCELED');
      await desk.trading.unwindFills([failure]);
      expect(await desk.store.orders.get(failure.makerOrderId)).toMatchObject({ status: 'CANCELED', filledSteps: 0 });
      const last = (await desk.store.orders.history(failure.makerOrderId)).at(-1);
      expect(last).toMatchObject({ type: 'FILL_REVERTED', reason: 'SETTLEMENT_FAILED' });
    });

    it('does not place again a completed order that a later cancel/all voided: it ends CANCELED with NONCE_FLOOR', async () => {
      const failure = await trade(10, 'taker');
      const maker = await desk.store.orders.get(failure.makerOrderId);
      expect(maker?.status).toBe('FILLED');
      await desk.trading.cancelBelowFloor('0.0.7', (maker?.nonce ?? 0n) + 1n);
      await desk.trading.unwindFills([failure]);
      expect(desk.books.live.get(failure.makerOrderId)).toBeUndefined();
      expect(await desk.store.orders.get(failure.makerOrderId)).toMatchObject({
        status: 'CANCELED',
        reason: 'NONCE_FLOOR',
        filledSteps: 0,
      });
    });

    it('undoes two failed fills of one completed order in one report from the order as the first left it', async () => {
      const [ask] = (await desk.nonces('0.0.7', 1)) as [bigint];
      await desk.trading.accept('0.0.7', [limitCandidate('0.0.7', SELL, 25_000, 10, ask)]);
      for (const [account, steps] of [
        ['0.0.8', 4],
        ['0.0.9', 6],
      ] as const) {
        const [bid] = (await desk.nonces(account, 1)) as [bigint];
        await desk.trading.accept(account, [limitCandidate(account, BUY, 25_000, steps, bid)]);
      }
      const failures = (await desk.store.settlements.pending(10)).map((pending) =>
        failureOf(pending, 'maker', 'INSUFFICIENT_FUNDS'),
      );
      expect(failures).toHaveLength(2);
      const makerId = failures[0]?.makerOrderId as number;
      expect((await desk.store.orders.get(makerId))?.status).toBe('FILLED');
      await desk.trading.unwindFills(failures);
      expect(await desk.store.orders.get(makerId)).toMatchObject({
        status: 'CANCELED',
        reason: 'INSUFFICIENT_FUNDS',
        filledSteps: 0,
        filledInput: 0n,
        filledOutput: 0n,
      });
      const types = (await desk.store.orders.history(makerId)).map((event) => event.type);
      expect(types).toEqual(['CREATED', 'PARTIAL_FILL', 'FILLED', 'FILL_REVERTED', 'CANCELED', 'FILL_REVERTED']);
    });
  });

  /** A queued swap with the pool, refused by the reactor because the pool moved (no one at fault). */
  function refusedSwap(swap: UnsettledTrade): FailedFill {
    const { tradeId, bookId, price, baseAmount, quoteAmount } = swap;
    const takerOrderId = swap.taker.orderId;
    return {
      tradeId,
      bookId,
      makerOrderId: null,
      takerOrderId,
      price,
      baseAmount,
      quoteAmount,
      culprit: null,
      reason: 'SETTLEMENT_FAILED',
    };
  }

  describe('settlement outcomes of swaps with the pool', () => {
    /** Book 1's pool at 0.25 USDC a WHBAR: 4,000 WHBAR and 1,000 USDC. */
    const reserves = { base: 400_000_000_000n, quote: 1_000_000_000n };

    it('gives a refused swap back to its taker, which trades again on the snapshot that forgot it', async () => {
      desk.engines.pools.synced(1, reserves, 1n);
      desk.engines.refreshPool(1);
      const [nonce] = (await desk.nonces('0.0.8', 1)) as [bigint];
      const [order] = await desk.trading.accept('0.0.8', [limitCandidate('0.0.8', BUY, 25_200, 10, nonce, { useAmm: true })]);
      if (order === undefined) throw new Error('no order');
      const [swap] = await desk.store.settlements.pending(10);
      if (swap === undefined) throw new Error('no swap');
      expect(swap).toMatchObject({ maker: null, baseAmount: 100_000_000n, direction: 'buy' });
      const moved = desk.engines.engine(1)?.pool;
      expect(moved).toEqual({ base: reserves.base - swap.baseAmount, quote: reserves.quote + swap.quoteAmount });

      await desk.trading.unwindFills([refusedSwap(swap)]);
      const [again] = await desk.store.settlements.pending(10);
      expect(again).toMatchObject({ maker: null, baseAmount: swap.baseAmount, quoteAmount: swap.quoteAmount });
      expect(again?.tradeId).not.toBe(swap.tradeId);
      // The engine swapped again from the reserves it had before the refused swap.
      expect(desk.engines.engine(1)?.pool).toEqual(moved);
      const history = await desk.store.orders.history(order.id);
      expect(history.map((event) => event.type)).toEqual(['CREATED', 'FILLED', 'FILL_REVERTED', 'FILLED']);
    });

    it('leaves an order that did not opt in to the book alone', async () => {
      desk.engines.pools.synced(1, reserves, 1n);
      desk.engines.refreshPool(1);
      const [nonce] = (await desk.nonces('0.0.8', 1)) as [bigint];
      const [order] = await desk.trading.accept('0.0.8', [limitCandidate('0.0.8', BUY, 25_200, 10, nonce)]);
      expect(order?.status).toBe('OPEN');
      expect(await desk.store.settlements.pending(10)).toEqual([]);
      expect(desk.engines.engine(1)?.pool).toEqual(reserves);
    });
  });

  describe('settlement outcomes of a market order swapping with the pool', () => {
    const reserves = { base: 400_000_000_000n, quote: 1_000_000_000n };

    /** A market sell of 1 WHBAR that opted in, at no less than 0.248: the pool (about 0.2492 after its fee) takes it all. */
    async function marketSell() {
      desk.engines.pools.synced(1, reserves, 1n);
      desk.engines.refreshPool(1);
      const [nonce] = (await desk.nonces('0.0.8', 1)) as [bigint];
      const candidate = limitCandidate('0.0.8', SELL, 24_800, 10, nonce, { useAmm: true });
      const [order] = await desk.trading.accept('0.0.8', [{ ...candidate, fields: { ...candidate.fields, type: 'MARKET' } }]);
      const [swap] = await desk.store.settlements.pending(10);
      if (order === undefined || swap === undefined) throw new Error('no swap');
      return { order, swap, refused: refusedSwap(swap) };
    }

    it('takes the quantity of a refused swap again at once', async () => {
      const { order, swap, refused } = await marketSell();
      await desk.trading.unwindFills([refused]);
      const [again] = await desk.store.settlements.pending(10);
      expect(again).toMatchObject({ maker: null, baseAmount: swap.baseAmount, quoteAmount: swap.quoteAmount });
      expect(again?.tradeId).not.toBe(swap.tradeId);
      expect(await desk.store.orders.get(order.id)).toMatchObject({ status: 'FILLED', filledSteps: 10 });
      const history = await desk.store.orders.history(order.id);
      expect(history.map((event) => event.type)).toEqual(['CREATED', 'FILLED', 'FILL_REVERTED', 'FILLED']);
    });

    it('takes nothing more from the pool while a swap the other way made after the refused one is unsettled: it was priced on reserves that held it', async () => {
      const first = await marketSell();
      const [nonce] = (await desk.nonces('0.0.9', 1)) as [bigint];
      const candidate = limitCandidate('0.0.9', BUY, 25_200, 10, nonce, { useAmm: true });
      await desk.trading.accept('0.0.9', [{ ...candidate, fields: { ...candidate.fields, type: 'MARKET' } }]);
      const [, second] = await desk.store.settlements.pending(10);
      if (second === undefined) throw new Error('no second swap');

      await desk.trading.unwindFills([first.refused]);
      expect(desk.engines.engine(1)?.pool).toBeUndefined();
      expect((await desk.store.settlements.pending(10)).map((trade) => trade.tradeId)).toEqual([second.tradeId]);
      expect(await desk.store.orders.get(first.order.id)).toMatchObject({
        status: 'CANCELED',
        reason: 'IMMEDIATE_OR_CANCEL',
        filledSteps: 0,
      });
    });

    it('ends a market order the pool only partly took again as it ended: the rest cancelled, never FILLED short of its size', async () => {
      desk.engines.pools.synced(1, reserves, 1n);
      desk.engines.refreshPool(1);
      const [nonce] = (await desk.nonces('0.0.8', 1)) as [bigint];
      // 20 WHBAR at no less than 0.248: the pool takes about 10 before its price falls below that.
      const candidate = limitCandidate('0.0.8', SELL, 24_800, 200, nonce, { useAmm: true });
      const [order] = await desk.trading.accept('0.0.8', [{ ...candidate, fields: { ...candidate.fields, type: 'MARKET' } }]);
      const [swap] = await desk.store.settlements.pending(10);
      if (order === undefined || swap === undefined) throw new Error('no swap');
      const partial = await desk.store.orders.get(order.id);
      expect(partial).toMatchObject({ status: 'CANCELED', reason: 'IMMEDIATE_OR_CANCEL' });
      expect(partial?.filledSteps).toBeGreaterThan(0);
      expect(partial?.filledSteps).toBeLessThan(200);

      await desk.trading.unwindFills([refusedSwap(swap)]);
      expect(await desk.store.orders.get(order.id)).toMatchObject({
        status: 'CANCELED',
        reason: 'IMMEDIATE_OR_CANCEL',
        filledSteps: partial?.filledSteps,
      });
      const history = await desk.store.orders.history(order.id);
      expect(history.map((event) => event.type)).toEqual([
        'CREATED',
        'PARTIAL_FILL',
        'CANCELED',
        'FILL_REVERTED',
        'PARTIAL_FILL',
        'CANCELED',
      ]);
    });

    it("takes again only what the rest of a market buy's budget affords on a dearer pool, and cancels the rest", async () => {
      desk.engines.pools.synced(1, reserves, 1n);
      desk.engines.refreshPool(1);
      const [nonce] = (await desk.nonces('0.0.8', 1)) as [bigint];
      // 0.252 USDC for WHBAR at up to 0.30: 1 WHBAR (10 steps) from the pool at about 0.2508.
      const candidate = limitCandidate('0.0.8', BUY, 30_000, 10, nonce, { useAmm: true, inputAmount: 252_000n });
      const budget = { kind: 'budget', side: BUY, priceTicks: 30_000n, budgetQuote: 252_000n } as const;
      const [order] = await desk.trading.accept('0.0.8', [
        { ...candidate, fields: { ...candidate.fields, type: 'MARKET' }, terms: budget },
      ]);
      const [swap] = await desk.store.settlements.pending(10);
      if (order === undefined || swap === undefined) throw new Error('no swap');
      expect(await desk.store.orders.get(order.id)).toMatchObject({ status: 'FILLED', filledSteps: 10 });

      // The pool has risen to 0.26 meanwhile: the budget buys 9 steps.
      desk.engines.pools.synced(1, { base: 400_000_000_000n, quote: 1_040_000_000n }, 2n);
      desk.engines.refreshPool(1);
      await desk.trading.unwindFills([refusedSwap(swap)]);
      expect(await desk.store.orders.get(order.id)).toMatchObject({
        status: 'CANCELED',
        reason: 'IMMEDIATE_OR_CANCEL',
        filledSteps: 9,
      });
      const history = await desk.store.orders.history(order.id);
      expect(history.map((event) => event.type)).toEqual(['CREATED', 'FILLED', 'FILL_REVERTED', 'PARTIAL_FILL', 'CANCELED']);
    });

    it('ends the order with the smaller fill when nothing meets its limit any more', async () => {
      const { order, refused } = await marketSell();
      // The pool has fallen to 0.2 meanwhile, below the order's 0.248.
      desk.engines.pools.synced(1, { base: 500_000_000_000n, quote: 1_000_000_000n }, 2n);
      desk.engines.refreshPool(1);
      await desk.trading.unwindFills([refused]);
      expect(await desk.store.settlements.pending(10)).toEqual([]);
      expect(await desk.store.orders.get(order.id)).toMatchObject({
        status: 'CANCELED',
        reason: 'IMMEDIATE_OR_CANCEL',
        filledSteps: 0,
      });
      const history = await desk.store.orders.history(order.id);
      expect(history.map((event) => event.type)).toEqual(['CREATED', 'FILLED', 'FILL_REVERTED', 'CANCELED']);
    });
  });
});
