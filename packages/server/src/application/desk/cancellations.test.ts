import { BUY, SELL } from '@dex/core';
import { afterEach, describe, expect, it } from 'vitest';
import { type DeskParts, limitCandidate, openDeskParts } from '../../test-support/desk-parts.js';

let desk: DeskParts;

afterEach(async () => {
  await desk.close();
});

async function rest(account: string, side: typeof BUY | typeof SELL, priceTicks: number) {
  const [nonce] = (await desk.nonces(account, 1)) as [bigint];
  const [record] = await desk.trading.accept(account, [limitCandidate(account, side, priceTicks, 10, nonce)]);
  return record?.id as number;
}

describe('the cancellation relay', () => {
  it('cancels the account own orders at once and reports another account order like an unknown one', async () => {
    desk = await openDeskParts();
    const mine = await rest('0.0.7', SELL, 25_000);
    const theirs = await rest('0.0.8', SELL, 25_100);
    const outcome = await desk.trading.cancel('0.0.7', [mine, theirs, 999, mine]);
    expect(outcome).toEqual({
      accepted: [mine],
      skipped: [
        { orderId: theirs, reason: 'NOT_FOUND' },
        { orderId: 999, reason: 'NOT_FOUND' },
      ],
    });
    expect((await desk.store.orders.get(mine))?.status).toBe('CANCELED');
    expect(await desk.trading.cancel('0.0.7', [mine])).toEqual({
      accepted: [],
      skipped: [{ orderId: mine, reason: 'NOT_OPEN' }],
    });
  });

  it('with a settlement chain, takes the order off its book at once and ends it only once the reactor confirmed', async () => {
    desk = await openDeskParts({ confirmCancels: true });
    const id = await rest('0.0.7', SELL, 25_000);
    await desk.trading.cancel('0.0.7', [id]);
    expect(desk.books.live.get(id)).toBeUndefined();
    expect((await desk.store.orders.get(id))?.status).toBe('OPEN');
    expect(await desk.trading.finalizeCancels()).toBe(0);
    const record = await desk.store.orders.get(id);
    await desk.store.cancellations.confirm(record?.orderHash as string, `0x${'c'.repeat(64)}`, 1n);
    expect(await desk.trading.finalizeCancels()).toBe(1);
    expect((await desk.store.orders.get(id))?.status).toBe('CANCELED');
  });

  it('raises a nonce floor and cancels the open orders below it only', async () => {
    desk = await openDeskParts();
    const low = await rest('0.0.7', SELL, 25_000);
    const high = await rest('0.0.7', BUY, 24_000);
    const floor = ((await desk.store.orders.get(high))?.nonce as bigint) - 0n;
    expect(await desk.trading.cancelBelowFloor('0.0.7', floor)).toEqual([low]);
    expect(desk.books.live.get(high)).toBeDefined();
    expect(await desk.store.nonces.floor('0.0.7')).toBe(floor);
  });

  it('ends at once an order its swapper cancelled on the reactor itself, with the transaction', async () => {
    desk = await openDeskParts({ confirmCancels: true });
    const id = await rest('0.0.7', SELL, 25_000);
    const record = await desk.store.orders.get(id);
    await desk.trading.cancelledOnChain(record?.orderHash as string, `0x${'d'.repeat(64)}`);
    expect((await desk.store.orders.get(id))?.status).toBe('CANCELED');
    const history = await desk.store.orders.history(id);
    expect(history.at(-1)).toMatchObject({ type: 'CANCELED', txHash: `0x${'d'.repeat(64)}` });
  });
});
