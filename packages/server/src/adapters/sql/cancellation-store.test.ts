import { BUY, SELL } from '@dex/core';
import { afterEach, describe, expect, it } from 'vitest';
import { type DeskParts, limitCandidate, openDeskParts } from '../../test-support/desk-parts.js';
import { describeEachEngine } from '../../test-support/store-engines.js';

describeEachEngine('cancellations and floors in the store', (stores) => {
  let desk: DeskParts;

  afterEach(async () => {
    await desk.close();
  });

  /** A resting ask of `0.0.7` and a bid of `0.0.8` that takes part of it: one trade, not settled. */
  async function matched(): Promise<{ askNonce: bigint; tradeId: number }> {
    const [askNonce] = (await desk.nonces('0.0.7', 1)) as [bigint];
    const [bidNonce] = (await desk.nonces('0.0.8', 1)) as [bigint];
    await desk.trading.accept('0.0.7', [limitCandidate('0.0.7', SELL, 25_000, 10, askNonce)]);
    await desk.trading.accept('0.0.8', [limitCandidate('0.0.8', BUY, 25_000, 4, bidNonce)]);
    const [trade] = desk.commits.flatMap((commit) => commit.trades);
    if (trade === undefined) throw new Error('the orders did not match');
    return { askNonce, tradeId: trade.id };
  }

  describe('nonce floors on their way to the reactor', () => {
    it('wait until the fills matched before the floor are settled, so the reactor never refuses them', async () => {
      desk = await openDeskParts({ confirmCancels: true, openStore: stores.open });
      const { askNonce, tradeId } = await matched();
      await desk.trading.cancelBelowFloor('0.0.7', askNonce + 1n);
      expect(await desk.store.cancellations.unsentFloors()).toEqual([]);
      await desk.store.settlements.markSettled(
        [{ tradeId, txHash: `0x${'a'.repeat(64)}`, blockNumber: 5n, makerFee: 0n, takerFee: 0n }],
        desk.clock.now(),
      );
      expect((await desk.store.cancellations.unsentFloors()).map(({ account, floor }) => ({ account, floor }))).toEqual([
        { account: '0.0.7', floor: askNonce + 1n },
      ]);
    });

    it('a fill found settled in another transaction than the one recorded moves there, on the tape and in both histories', async () => {
      desk = await openDeskParts({ confirmCancels: true, openStore: stores.open });
      const { tradeId } = await matched();
      const settle = (txHash: string, blockNumber: bigint) =>
        desk.store.settlements.markSettled([{ tradeId, txHash, blockNumber, makerFee: 0n, takerFee: 0n }], desk.clock.now());
      const named = async () => {
        const trade = await desk.store.trades.latest(1);
        const orders = trade === undefined ? [] : [trade.makerOrderId, trade.takerOrderId];
        const events = await Promise.all(orders.map((id) => (id === null ? [] : desk.store.orders.history(id))));
        const fills = events.flat().filter((event) => event.fill?.tradeId === tradeId);
        return [trade?.transactionHash, ...fills.map((event) => event.txHash)];
      };
      await settle(`0x${'a'.repeat(64)}`, 5n);
      expect(await named()).toEqual(Array(3).fill(`0x${'a'.repeat(64)}`));
      expect(await settle(`0x${'a'.repeat(64)}`, 5n)).toEqual([]);
      // The reactor's event for it, on the chain as it is now, is in another transaction.
      expect((await settle(`0x${'e'.repeat(64)}`, 7n)).map((trade) => trade.tradeId)).toEqual([tradeId]);
      expect(await named()).toEqual(Array(3).fill(`0x${'e'.repeat(64)}`));
    });

    it('keep the higher floor when a lower one comes after it (an older raise on the reactor, indexed late)', async () => {
      desk = await openDeskParts({ confirmCancels: true, openStore: stores.open });
      await desk.trading.cancelBelowFloor('0.0.7', 100n);
      await desk.trading.floorRaisedOnChain('0.0.7', 50n, `0x${'b'.repeat(64)}`);
      expect((await desk.store.cancellations.unsentFloors()).map(({ account, floor }) => ({ account, floor }))).toEqual([
        { account: '0.0.7', floor: 100n },
      ]);
    });

    it('do not wait for fills of orders at or above the floor', async () => {
      desk = await openDeskParts({ confirmCancels: true, openStore: stores.open });
      const { askNonce } = await matched();
      await desk.trading.cancelBelowFloor('0.0.7', askNonce);
      expect((await desk.store.cancellations.unsentFloors()).map(({ floor }) => floor)).toEqual([askNonce]);
    });
  });

  describe('start-up reconciliation of cancellations', () => {
    it('sends again a cancellation confirmed in a block the chain lost, keeping it final, and leaves older ones alone', async () => {
      desk = await openDeskParts({ confirmCancels: true, openStore: stores.open });
      const [first, second] = (await desk.nonces('0.0.7', 2)) as [bigint, bigint];
      const [kept, lost] = await desk.trading.accept('0.0.7', [
        limitCandidate('0.0.7', SELL, 25_000, 10, first),
        limitCandidate('0.0.7', SELL, 25_100, 10, second, { index: 1 }),
      ]);
      if (kept === undefined || lost === undefined) throw new Error('orders were not accepted');
      await desk.trading.cancel('0.0.7', [kept.id, lost.id]);
      await desk.store.cancellations.markSent([kept.id, lost.id], `0x${'b'.repeat(64)}`);
      await desk.store.cancellations.confirm(kept.orderHash, `0x${'b'.repeat(64)}`, 10n);
      await desk.store.cancellations.confirm(lost.orderHash, `0x${'c'.repeat(64)}`, 12n);
      expect(await desk.trading.finalizeCancels()).toBe(2);

      expect(await desk.store.cancellations.requeueLostAfter(11n, desk.clock.now())).toEqual({ cancellations: 1, floors: 0 });
      expect((await desk.store.cancellations.unsent(10)).map((cancellation) => cancellation.orderId)).toEqual([lost.id]);
      expect((await desk.store.orders.get(lost.id))?.status).toBe('CANCELED');
      await desk.store.cancellations.confirm(lost.orderHash, `0x${'d'.repeat(64)}`, 13n);
      expect(await desk.store.cancellations.unsent(10)).toEqual([]);
      expect(await desk.trading.finalizeCancels()).toBe(0);
    });

    it("names in a final cancellation's history the transaction that confirmed it again, never the one the chain lost", async () => {
      desk = await openDeskParts({ confirmCancels: true, openStore: stores.open });
      const [nonce] = (await desk.nonces('0.0.7', 1)) as [bigint];
      const [order] = await desk.trading.accept('0.0.7', [limitCandidate('0.0.7', SELL, 25_000, 10, nonce)]);
      if (order === undefined) throw new Error('order was not accepted');
      const canceledHash = async () =>
        (await desk.store.orders.history(order.id)).filter((event) => event.type === 'CANCELED').map((event) => event.txHash);
      await desk.trading.cancel('0.0.7', [order.id]);
      await desk.store.cancellations.markSent([order.id], `0x${'c'.repeat(64)}`);
      await desk.store.cancellations.confirm(order.orderHash, `0x${'c'.repeat(64)}`, 12n);
      expect(await desk.trading.finalizeCancels()).toBe(1);
      expect(await canceledHash()).toEqual([`0x${'c'.repeat(64)}`]);

      await desk.store.cancellations.requeueLostAfter(11n, desk.clock.now());
      expect(await canceledHash()).toEqual([null]);
      await desk.store.cancellations.confirm(order.orderHash, `0x${'d'.repeat(64)}`, 13n);
      expect(await canceledHash()).toEqual([`0x${'d'.repeat(64)}`]);
    });

    it('sends again a cancellation sent before a crash and never confirmed', async () => {
      desk = await openDeskParts({ confirmCancels: true, openStore: stores.open });
      const [nonce] = (await desk.nonces('0.0.7', 1)) as [bigint];
      const [order] = await desk.trading.accept('0.0.7', [limitCandidate('0.0.7', SELL, 25_000, 10, nonce)]);
      if (order === undefined) throw new Error('order was not accepted');
      await desk.trading.cancel('0.0.7', [order.id]);
      await desk.store.cancellations.markSent([order.id], `0x${'b'.repeat(64)}`);
      expect(await desk.store.cancellations.unsent(10)).toEqual([]);
      expect(await desk.store.cancellations.requeueLostAfter(100n, desk.clock.now())).toEqual({ cancellations: 1, floors: 0 });
      expect((await desk.store.cancellations.unsent(10)).map((cancellation) => cancellation.orderId)).toEqual([order.id]);
    });
  });
});
