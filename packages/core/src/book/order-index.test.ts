import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OrderIndex } from './order-index.js';

describe('OrderIndex', () => {
  it('behaves like a Map under any sequence of adds and deletes', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.boolean(), fc.oneof(fc.integer({ min: 0, max: 300 }), fc.maxSafeNat())), { maxLength: 2_000 }),
        (steps) => {
          const index = new OrderIndex(4);
          const model = new Map<number, number>();
          for (const [add, id] of steps) {
            if (add && !model.has(id)) {
              index.add(id, id % 1_000_003);
              model.set(id, id % 1_000_003);
            } else {
              expect(index.delete(id)).toBe(model.delete(id));
            }
            expect(index.size).toBe(model.size);
          }
          for (const [id, value] of model) expect(index.get(id)).toBe(value);
          expect(new Map(index.entries())).toEqual(model);
          expect(index.has(-5)).toBe(false);
          expect(index.get(Number.MAX_SAFE_INTEGER - 7)).toBe(model.get(Number.MAX_SAFE_INTEGER - 7) ?? -1);
        },
      ),
    );
  });
});
