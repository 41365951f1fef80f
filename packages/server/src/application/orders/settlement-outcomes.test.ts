import { BUY, SELL } from '@dex/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FailedFill } from '../../ports/settlement-desk.js';
import { type DeskParts, limitCandidate, openDeskParts } from '../../test-support/desk-parts.js';

let desk: DeskParts;

beforeEach(async () => {
  desk = await openDeskParts();
});
afterEach(async () => {
  await desk.close();
});

/** A resting sell of 10 steps and a buy that takes `steps` of it: the trade, as the settler would report its failure. */
async function trade(steps: number, culprit: FailedFill['culprit']): Promise<FailedFill> {
  const [ask] = (await desk.nonces('0.0.7', 1)) as [bigint];
  const [bid] = (await desk.nonces('0.0.8', 1)) as [bigint];
  await desk.acceptance.accept('0.0.7', [limitCandidate('0.0.7', SELL, 25_000, 10, ask)]);
  await desk.acceptance.accept('0.0.8', [limitCandidate('0.0.8', BUY, 25_000, steps, bid)]);
  const [pending] = await desk.store.settlements.pending(10);
  if (pending === undefined) throw new Error('no trade');
  return {
    tradeId: pending.tradeId,
    bookId: pending.bookId,
    makerOrderId: pending.maker.orderId,
    takerOrderId: pending.taker.orderId,
    baseAmount: pending.baseAmount,
    quoteAmount: pending.quoteAmount,
    culprit,
    reason: culprit === null ? 'SETTLEMENT_FAILED' : 'INSUFFICIENT_FUNDS',
  };
}

describe('settlement outcomes', () => {
  it('cancels the order at fault and gives the resting counterparty its quantity back, stored before it answers', async () => {
    const failure = await trade(4, 'taker');
    await desk.outcomes.unwindFills([failure]);
    const maker = desk.books.live.get(failure.makerOrderId);
    expect(maker).toMatchObject({ filledSteps: 0, status: 'OPEN' });
    const taker = await desk.store.orders.get(failure.takerOrderId);
    expect(taker).toMatchObject({ status: 'CANCELED', reason: 'INSUFFICIENT_FUNDS', filledSteps: 0 });
    expect(await desk.store.settlements.unsettled([failure.tradeId])).toEqual(new Set());
  });

  it('places a limit order the failed trade had completed back on its book', async () => {
    const failure = await trade(10, 'taker');
    expect(desk.books.live.get(failure.makerOrderId)).toBeUndefined();
    await desk.outcomes.unwindFills([failure]);
    expect(desk.books.live.get(failure.makerOrderId)).toMatchObject({ status: 'OPEN', filledSteps: 0 });
  });

  it('changes nothing when the same failure is reported again', async () => {
    const failure = await trade(4, 'maker');
    await desk.outcomes.unwindFills([failure]);
    const commits = desk.commits.length;
    await desk.outcomes.unwindFills([failure]);
    expect(desk.commits.slice(commits).flatMap((commit) => commit.orderEvents)).toEqual([]);
    expect((await desk.store.orders.get(failure.makerOrderId))?.status).toBe('CANCELED');
  });
});
