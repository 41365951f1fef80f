import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BatchSize } from './batch-size.js';

describe('BatchSize', () => {
  it('starts at the configured maximum', () => {
    const size = new BatchSize(100);
    expect(size.next(false)).toBe(100);
    expect(size.next(true)).toBe(100);
  });

  it('halves a refused batch, doubles back after a mined one, but stays below the size that was refused', () => {
    const size = new BatchSize(100);
    size.refused(100);
    expect(size.next(false)).toBe(50);
    // A batch read while the halved one is in flight already takes the size it will grow to.
    expect(size.next(true)).toBe(87);
    size.mined();
    expect(size.next(false)).toBe(87);
    size.mined();
    expect(size.next(false)).toBe(88);
    for (let batch = 0; batch < 20; batch++) size.mined();
    expect(size.next(false)).toBe(100);
  });

  it('comes down to single fills when every batch is refused', () => {
    const size = new BatchSize(150);
    for (let refused = 0; refused < 10; refused++) size.refused(size.next(false));
    expect(size.next(false)).toBe(1);
    expect(size.next(true)).toBe(1);
  });

  it('always asks for between one fill and the maximum, and never for more than a just-refused batch', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 500 }), fc.array(fc.boolean(), { maxLength: 200 }), (max, outcomes) => {
        const size = new BatchSize(max);
        for (const refused of outcomes) {
          const fills = size.next(false);
          expect(fills).toBeGreaterThanOrEqual(1);
          expect(fills).toBeLessThanOrEqual(max);
          expect(size.next(true)).toBeGreaterThanOrEqual(fills);
          expect(size.next(true)).toBeLessThanOrEqual(max);
          if (refused) {
            size.refused(fills);
            expect(size.next(true)).toBeLessThan(Math.max(2, fills));
          } else size.mined();
        }
      }),
    );
  });
});
