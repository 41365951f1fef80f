import { BUY, SELL } from '@dex/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type DeskParts, limitCandidate, openDeskParts } from '../../test-support/desk-parts.js';

let desk: DeskParts;

beforeEach(async () => {
  desk = await openDeskParts();
});
afterEach(async () => {
  await desk.close();
});

describe('order acceptance', () => {
  it('stores a batch in batch order and matches it on its book', async () => {
    const [ask] = (await desk.nonces('0.0.7', 1)) as [bigint];
    const [bid] = (await desk.nonces('0.0.8', 1)) as [bigint];
    const [maker] = await desk.trading.accept('0.0.7', [limitCandidate('0.0.7', SELL, 25_000, 10, ask)]);
    const [taker] = await desk.trading.accept('0.0.8', [limitCandidate('0.0.8', BUY, 25_000, 4, bid)]);
    expect(taker?.status).toBe('FILLED');
    expect(desk.books.live.get(maker?.id as number)?.filledSteps).toBe(4);
    expect(desk.commits.flatMap((commit) => commit.trades)).toHaveLength(1);
  });

  it('answers the stored order for a signed order saved before, without taking its nonce again', async () => {
    const [nonce] = (await desk.nonces('0.0.7', 1)) as [bigint];
    const candidate = limitCandidate('0.0.7', SELL, 25_000, 10, nonce);
    const [first] = await desk.trading.accept('0.0.7', [candidate]);
    const [again] = await desk.trading.accept('0.0.7', [candidate]);
    expect(again?.id).toBe(first?.id);
    expect(desk.books.live.countOf('0.0.7')).toBe(1);
  });

  it('links OCO partners of one batch: the fill of one cancels the other', async () => {
    const [a, b] = (await desk.nonces('0.0.7', 2)) as [bigint, bigint];
    const [sell, buy] = await desk.trading.accept('0.0.7', [
      limitCandidate('0.0.7', SELL, 25_100, 10, a, { ocoWith: 1 }),
      limitCandidate('0.0.7', BUY, 24_900, 10, b, { index: 1, ocoWith: 0 }),
    ]);
    expect(sell?.ocoOrderId).toBe(buy?.id);
    const [taker] = (await desk.nonces('0.0.8', 1)) as [bigint];
    await desk.trading.accept('0.0.8', [limitCandidate('0.0.8', SELL, 24_900, 10, taker)]);
    expect((await desk.store.orders.get(sell?.id as number))?.status).toBe('CANCELED');
  });

  it('expires orders past their deadline before the batch can trade with them', async () => {
    const [ask] = (await desk.nonces('0.0.7', 1)) as [bigint];
    const [bid] = (await desk.nonces('0.0.8', 1)) as [bigint];
    const [maker] = await desk.trading.accept('0.0.7', [
      limitCandidate('0.0.7', SELL, 25_000, 10, ask, { deadlineMs: desk.clock.now() + 60_000 }),
    ]);
    desk.clock.advance(61_000);
    const [taker] = await desk.trading.accept('0.0.8', [limitCandidate('0.0.8', BUY, 25_000, 4, bid)]);
    expect(taker?.status).toBe('OPEN');
    expect((await desk.store.orders.get(maker?.id as number))?.status).toBe('EXPIRED');
  });

  it('refuses a batch past the open-order cap or with a used nonce before anything changes', async () => {
    const [nonce] = (await desk.nonces('0.0.7', 1)) as [bigint];
    await desk.trading.accept('0.0.7', [limitCandidate('0.0.7', SELL, 25_000, 10, nonce)]);
    await expect(desk.trading.accept('0.0.7', [limitCandidate('0.0.7', SELL, 25_100, 10, nonce)])).rejects.toMatchObject({
      code: 'NONCE_NOT_ISSUED',
    });
    expect(desk.books.live.countOf('0.0.7')).toBe(1);
  });
});
