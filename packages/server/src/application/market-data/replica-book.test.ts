import { BUY, SELL } from '@dex/core';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type DeskParts, limitCandidate, openDeskParts } from '../../test-support/desk-parts.js';
import { ReplicaBook } from './replica-book.js';

describe('a replica of a book', () => {
  let desk: DeskParts;

  beforeEach(async () => {
    desk = await openDeskParts();
  });
  afterEach(async () => {
    await desk.close();
  });

  const orderArbitrary = fc.record({
    account: fc.constantFrom('0.0.7', '0.0.8', '0.0.9'),
    side: fc.constantFrom(BUY, SELL),
    price: fc.integer({ min: 24_990, max: 25_010 }),
    size: fc.integer({ min: 1, max: 30 }),
  });

  it("holds the engine's depth after any run of orders, kept from its commits' depth changes", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(orderArbitrary, { minLength: 1, maxLength: 25 }), async (orders) => {
        const replica = new ReplicaBook(() => false);
        const engine = desk.engines.engine(1);
        replica.load(engine?.depth() ?? { bids: [], asks: [], lastUpdateId: 0 }, undefined);
        const from = desk.commits.length;
        for (const { account, side, price, size } of orders) {
          const [nonce] = (await desk.nonces(account, 1)) as [bigint];
          await desk.trading.accept(account, [limitCandidate(account, side, price, size, nonce)]);
        }
        for (const commit of desk.commits.slice(from)) {
          for (const change of commit.depth) expect(replica.apply(change)).toBe('applied');
        }
        expect(replica.depth()).toEqual(engine?.depth());
        const bids: [bigint, number][] = [];
        replica.forEachLevel(BUY, (price, size) => bids.push([price, size]) > 0);
        expect(bids).toEqual(engine?.depth().bids);
      }),
      { numRuns: 15 },
    );
  });

  it('calls a change it already holds old, and one that starts past its next update id a gap', () => {
    const replica = new ReplicaBook(() => false);
    replica.load({ bids: [[100n, 5]], asks: [], lastUpdateId: 10 }, undefined);
    const change = (first: number, final: number) => ({
      bookId: 1,
      firstUpdateId: first,
      finalUpdateId: final,
      time: 0,
      bids: [[100n, 0] as const],
      asks: [],
    });
    expect(replica.apply(change(9, 10))).toBe('old');
    expect(replica.apply(change(12, 12))).toBe('gap');
    expect(replica.depth().bids).toEqual([[100n, 5]]);
    // Sizes are final, so a change that overlaps what the replica holds applies.
    expect(replica.apply(change(10, 11))).toBe('applied');
    expect(replica.depth()).toEqual({ bids: [], asks: [], lastUpdateId: 11 });
  });
});
