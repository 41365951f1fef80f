import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OrderIds } from './order-ids.js';

describe('order ids', () => {
  it('hands out every id after the last one when there is one engine', () => {
    const ids = new OrderIds(41);
    expect([ids.take(), ids.take(), ids.take()]).toEqual([42, 43, 44]);
  });

  it('never gives two shards the same id, and each only ids above the store highest', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), fc.nat(10_000), fc.nat(10_000), (shards, lastA, lastB) => {
        const taken = new Set<number>();
        for (let shard = 0; shard < shards; shard++) {
          const ids = new OrderIds(shard % 2 === 0 ? lastA : lastB, shard, shards);
          for (let n = 0; n < 20; n++) {
            const id = ids.take();
            expect(id % shards).toBe(shard);
            expect(id).toBeGreaterThan(shard % 2 === 0 ? lastA : lastB);
            expect(taken.has(id)).toBe(false);
            taken.add(id);
          }
        }
      }),
    );
  });

  it('continues with the shard next id after a rebuild', () => {
    const ids = new OrderIds(0, 1, 3);
    expect(ids.take()).toBe(1);
    ids.continueAfter(10);
    expect([ids.take(), ids.take()]).toEqual([13, 16]);
  });
});
