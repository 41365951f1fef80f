import { BUY, SELL } from '@dex/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type DeskParts, limitCandidate, openDeskParts } from '../../test-support/desk-parts.js';
import { MAX_OPEN_ORDERS_PER_ACCOUNT } from './admission-checks.js';

let desk: DeskParts;

beforeEach(async () => {
  desk = await openDeskParts();
});
afterEach(async () => {
  await desk.close();
});

describe('the intake checks', () => {
  it('accept nonces issued to the account and unused, once each', async () => {
    const [one, two] = (await desk.nonces('0.0.7', 2)) as [bigint, bigint];
    await expect(
      desk.checks.checkNonces('0.0.7', [
        limitCandidate('0.0.7', SELL, 25_000, 10, one),
        limitCandidate('0.0.7', SELL, 25_000, 10, two),
      ]),
    ).resolves.toBeUndefined();
    await expect(
      desk.checks.checkNonces('0.0.7', [
        limitCandidate('0.0.7', SELL, 25_000, 10, one),
        limitCandidate('0.0.7', SELL, 25_000, 10, one, { index: 1 }),
      ]),
    ).rejects.toMatchObject({ code: 'NONCE_NOT_ISSUED' });
  });

  it('refuse a nonce issued to another account, or used by an order of the commit group not stored yet', async () => {
    const [theirs] = (await desk.nonces('0.0.8', 1)) as [bigint];
    await expect(desk.checks.checkNonces('0.0.7', [limitCandidate('0.0.7', SELL, 25_000, 10, theirs)])).rejects.toMatchObject({
      code: 'NONCE_NOT_ISSUED',
    });
    const [mine] = (await desk.nonces('0.0.7', 1)) as [bigint];
    const accepting = desk.trading.accept('0.0.7', [limitCandidate('0.0.7', SELL, 25_000, 10, mine)]);
    // The next turn runs before the group of the first is stored: the store still lists the nonce as unused.
    const checking = desk.sequencer.run(async () => {
      expect(await desk.store.nonces.unused('0.0.7', [mine])).toEqual(new Map([[mine, 1]]));
      await desk.checks.checkNonces('0.0.7', [limitCandidate('0.0.7', SELL, 25_000, 10, mine)]);
    });
    const refused = expect(checking).rejects.toMatchObject({ code: 'NONCE_NOT_ISSUED' });
    await accepting;
    await refused;
  });

  it('refuse a nonce below a floor raised in the commit group', async () => {
    const [nonce] = (await desk.nonces('0.0.7', 1)) as [bigint];
    await desk.sequencer.run(async () => {
      const turn = desk.books.turn(desk.clock.now());
      turn.raiseNonceFloor('0.0.7', nonce + 1n);
      desk.sequencer.stage(turn);
      await expect(desk.checks.checkNonces('0.0.7', [limitCandidate('0.0.7', SELL, 25_000, 10, nonce)])).rejects.toMatchObject({
        code: 'NONCE_BELOW_FLOOR',
      });
    });
  });

  it('keep an account within the open-order cap', () => {
    expect(() => desk.checks.assertRoomFor('0.0.7', MAX_OPEN_ORDERS_PER_ACCOUNT)).not.toThrow();
    expect(() => desk.checks.assertRoomFor('0.0.7', MAX_OPEN_ORDERS_PER_ACCOUNT + 1)).toThrow(
      expect.objectContaining({ code: 'OPEN_ORDER_LIMIT' }),
    );
  });

  it('reserve what open orders may still spend: balance and allowance must cover them and the new ones', async () => {
    const [one, two] = (await desk.nonces('0.0.7', 2)) as [bigint, bigint];
    await desk.trading.accept('0.0.7', [limitCandidate('0.0.7', BUY, 25_000, 10, one, { inputAmount: 600n })]);
    const usdc = limitCandidate('0.0.7', BUY, 25_000, 10, two, { inputAmount: 400n }).signed.inputToken;
    const next = [limitCandidate('0.0.7', BUY, 25_000, 10, two, { inputAmount: 400n })];
    expect(() =>
      desk.checks.assertCovered('0.0.7', next, new Map([[usdc, { balance: 1_000n, allowance: 1_000n }]])),
    ).not.toThrow();
    expect(() => desk.checks.assertCovered('0.0.7', next, new Map([[usdc, { balance: 1_000n, allowance: 999n }]]))).toThrow(
      expect.objectContaining({ code: 'INSUFFICIENT_FUNDS' }),
    );
    expect(() => desk.checks.assertCovered('0.0.7', next, new Map())).toThrow(
      expect.objectContaining({ code: 'INSUFFICIENT_FUNDS' }),
    );
  });

  it('find orders saved already, stored or in the commit group', async () => {
    const [nonce] = (await desk.nonces('0.0.7', 1)) as [bigint];
    const candidate = limitCandidate('0.0.7', SELL, 25_000, 10, nonce);
    const [record] = await desk.trading.accept('0.0.7', [candidate]);
    const saved = await desk.checks.saved([candidate.fields.orderHash, '0xunknown']);
    expect([...saved.values()].map((found) => found.id)).toEqual([record?.id]);
  });
});
