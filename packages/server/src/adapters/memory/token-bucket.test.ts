import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../test-support/manual-clock.js';
import { TokenBucketLimiter } from './token-bucket.js';

function limiter(capacity: number, refillPerSecond: number, maxKeys = 100) {
  const clock = new ManualClock();
  return { clock, buckets: new TokenBucketLimiter({ capacity, refillPerSecond, maxKeys, clock }) };
}

describe('TokenBucketLimiter', () => {
  it('allows a burst of capacity, then refuses with the time until the next token', () => {
    const { buckets } = limiter(3, 1);
    expect([1, 2, 3].map(() => buckets.take('a'))).toEqual([
      { allowed: true, retryAfterMs: 0, remaining: 2 },
      { allowed: true, retryAfterMs: 0, remaining: 1 },
      { allowed: true, retryAfterMs: 0, remaining: 0 },
    ]);
    expect(buckets.take('a')).toEqual({ allowed: false, retryAfterMs: 1_000, remaining: 0 });
    expect(buckets.take('b')).toEqual({ allowed: true, retryAfterMs: 0, remaining: 2 });
  });

  it('refills to the millisecond, and a refused take consumes nothing', () => {
    const { clock, buckets } = limiter(2, 0.5);
    buckets.take('a', 2);
    clock.advance(1_999);
    expect(buckets.take('a')).toEqual({ allowed: false, retryAfterMs: 1, remaining: 0 });
    clock.advance(1);
    expect(buckets.take('a')).toEqual({ allowed: true, retryAfterMs: 0, remaining: 0 });
    clock.advance(3_000);
    expect(buckets.take('a', 2)).toEqual({ allowed: false, retryAfterMs: 1_000, remaining: 1 });
    clock.advance(999);
    expect(buckets.take('a', 2)).toEqual({ allowed: false, retryAfterMs: 1, remaining: 1 });
    clock.advance(1);
    expect(buckets.take('a', 2)).toEqual({ allowed: true, retryAfterMs: 0, remaining: 0 });
    clock.advance(60_000);
    // Refill stops at capacity.
    expect(buckets.take('a', 2)).toEqual({ allowed: true, retryAfterMs: 0, remaining: 0 });
    expect(buckets.take('a')).toEqual({ allowed: false, retryAfterMs: 2_000, remaining: 0 });
  });

  it('adds up many small refills without drift at a rate that is not a power of two', () => {
    const { clock, buckets } = limiter(1, 0.003);
    buckets.take('a');
    for (let step = 0; step < 333; step += 1) {
      clock.advance(1_000);
      expect(buckets.take('a').allowed).toBe(false);
    }
    // 1 token at 0.003/s takes 333 333.33 ms: refused at 333 333, allowed at 333 334.
    clock.advance(333);
    expect(buckets.take('a')).toEqual({ allowed: false, retryAfterMs: 1, remaining: 0 });
    clock.advance(1);
    expect(buckets.take('a').allowed).toBe(true);
  });

  it('charges a cost, and never allows one above capacity', () => {
    const { buckets } = limiter(10, 1);
    expect(buckets.take('a', 7)).toEqual({ allowed: true, retryAfterMs: 0, remaining: 3 });
    expect(buckets.take('a', 5)).toEqual({ allowed: false, retryAfterMs: 2_000, remaining: 3 });
    expect(buckets.take('a', 11)).toEqual({ allowed: false, retryAfterMs: Number.POSITIVE_INFINITY, remaining: 3 });
    expect(buckets.take('fresh', 11)).toEqual({ allowed: false, retryAfterMs: Number.POSITIVE_INFINITY, remaining: 10 });
    expect(buckets.size).toBe(1);
    expect(buckets.take('a', 0)).toEqual({ allowed: true, retryAfterMs: 0, remaining: 3 });
  });

  it('peeks without taking', () => {
    const { buckets } = limiter(1, 1);
    expect(buckets.peek('a')).toEqual({ allowed: true, retryAfterMs: 0, remaining: 0 });
    expect(buckets.size).toBe(0);
    buckets.take('a');
    expect(buckets.peek('a')).toEqual({ allowed: false, retryAfterMs: 1_000, remaining: 0 });
  });

  it('does not refill when the clock goes back', () => {
    const { clock, buckets } = limiter(1, 1);
    buckets.take('a');
    clock.advance(-5_000);
    expect(buckets.take('a')).toEqual({ allowed: false, retryAfterMs: 6_000, remaining: 0 });
    expect(buckets.peek('a')).toEqual({ allowed: false, retryAfterMs: 6_000, remaining: 0 });
    clock.advance(5_999);
    expect(buckets.take('a').allowed).toBe(false);
    clock.advance(1);
    expect(buckets.take('a').allowed).toBe(true);
  });

  it('rejects settings it cannot count exactly', () => {
    const clock = new ManualClock();
    expect(() => new TokenBucketLimiter({ capacity: 1.5, refillPerSecond: 1, maxKeys: 1, clock })).toThrow(RangeError);
    expect(() => new TokenBucketLimiter({ capacity: 1, refillPerSecond: 0.0001, maxKeys: 1, clock })).toThrow(RangeError);
    expect(() => new TokenBucketLimiter({ capacity: 1, refillPerSecond: 0, maxKeys: 1, clock })).toThrow(RangeError);
    expect(() => new TokenBucketLimiter({ capacity: 1, refillPerSecond: Number.POSITIVE_INFINITY, maxKeys: 1, clock })).toThrow(
      RangeError,
    );
    expect(() => new TokenBucketLimiter({ capacity: 1, refillPerSecond: 1, maxKeys: 0, clock })).toThrow(RangeError);
    const buckets = new TokenBucketLimiter({ capacity: 1, refillPerSecond: 0.007, maxKeys: 1, clock });
    expect(() => buckets.take('a', -1)).toThrow(RangeError);
    expect(() => buckets.take('a', 0.5)).toThrow(RangeError);
  });

  describe('memory bound', () => {
    it('evicts a bucket that is full again before a drained one, even a more recently used one', () => {
      const { clock, buckets } = limiter(2, 1, 3);
      buckets.take('drained-1', 2);
      buckets.take('drained-2', 2);
      buckets.take('light', 1);
      clock.advance(1_000);
      // 'light' is full again and the most recently used; the drained ones are not full yet.
      buckets.take('new');
      expect(buckets.size).toBe(3);
      expect(buckets.take('drained-1').allowed).toBe(true);
      expect(buckets.take('drained-1').allowed).toBe(false);
      expect(buckets.take('drained-2').allowed).toBe(true);
      expect(buckets.take('drained-2').allowed).toBe(false);
    });

    it('falls back to the least recently used bucket when none is full', () => {
      const { buckets } = limiter(1, 1, 2);
      buckets.take('a');
      buckets.take('b');
      // A refused take counts as a use, so 'a' becomes the most recent.
      buckets.take('a');
      buckets.take('c');
      expect(buckets.size).toBe(2);
      expect(buckets.take('a').allowed).toBe(false);
      // 'b' was forgotten and comes back with a full bucket.
      expect(buckets.take('b').allowed).toBe(true);
    });

    it('never holds more than maxKeys buckets, and keeps every drained bucket while idle ones can go', () => {
      fc.assert(
        fc.property(
          fc.integer({ min: 1, max: 8 }),
          fc.array(
            fc.tuple(fc.integer({ min: 0, max: 12 }), fc.integer({ min: 0, max: 1_500 }), fc.integer({ min: 1, max: 2 })),
            { maxLength: 200 },
          ),
          (maxKeys, steps) => {
            const { clock, buckets } = limiter(2, 1, maxKeys);
            for (const [key, advanceMs, cost] of steps) {
              clock.advance(advanceMs);
              const drained = [...Array(13).keys()].filter((other) => buckets.peek(`k${other}`, 2).allowed === false);
              buckets.take(`k${key}`, cost);
              expect(buckets.size).toBeLessThanOrEqual(maxKeys);
              // A drained bucket is forgotten only when every held bucket was drained.
              const forgotten = drained.filter((other) => other !== key && buckets.peek(`k${other}`, 2).allowed);
              if (forgotten.length > 0) expect(drained.length).toBeGreaterThanOrEqual(maxKeys);
            }
          },
        ),
      );
    });
  });

  it('never allows more than capacity + refill × elapsed in any window', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 3_000 }),
        fc.array(
          fc.record({
            key: fc.integer({ min: 0, max: 2 }),
            advanceMs: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 50 }), fc.integer({ min: 0, max: 5_000 })),
            cost: fc.integer({ min: 0, max: 3 }),
          }),
          { maxLength: 150 },
        ),
        (capacity, refillMilliPerSecond, steps) => {
          const { clock, buckets } = limiter(capacity, refillMilliPerSecond / 1_000, 3);
          const granted: { key: number; at: number; cost: number }[] = [];
          for (const { key, advanceMs, cost } of steps) {
            clock.advance(advanceMs);
            if (buckets.take(`k${key}`, cost).allowed) granted.push({ key, at: clock.now(), cost });
          }
          // Every window that starts and ends at a granted take of the same key, in millitokens.
          for (let first = 0; first < granted.length; first += 1) {
            const start = granted[first];
            if (start === undefined) continue;
            let spent = 0;
            for (const grant of granted.slice(first)) {
              if (grant.key !== start.key) continue;
              spent += grant.cost;
              expect(spent * 1_000).toBeLessThanOrEqual(capacity * 1_000 + refillMilliPerSecond * (grant.at - start.at));
            }
          }
        },
      ),
    );
  });

  it('agrees with a plain model in exact integer arithmetic', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 3_000 }),
        fc.array(
          fc.record({
            key: fc.integer({ min: 0, max: 2 }),
            advanceMs: fc.oneof(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 5_000 })),
            cost: fc.integer({ min: 0, max: 6 }),
            peek: fc.boolean(),
          }),
          { maxLength: 150 },
        ),
        (capacity, refillMilliPerSecond, steps) => {
          const { clock, buckets } = limiter(capacity, refillMilliPerSecond / 1_000, 3);
          // Microtokens, refilled by refillMilliPerSecond every ms, as bigints: nothing to round.
          const full = BigInt(capacity) * 1_000_000n;
          const model = new Map<number, { micro: bigint; at: number }>();
          for (const { key, advanceMs, cost, peek } of steps) {
            clock.advance(advanceMs);
            const now = clock.now();
            const held = model.get(key) ?? { micro: full, at: now };
            const refilled = held.micro + BigInt(now - held.at) * BigInt(refillMilliPerSecond);
            const micro = refilled < full ? refilled : full;
            const costMicro = BigInt(cost) * 1_000_000n;
            const allowed = costMicro <= micro;
            const left = allowed ? micro - costMicro : micro;
            const rate = BigInt(refillMilliPerSecond);
            let retryAfterMs = 0;
            if (cost > capacity) retryAfterMs = Number.POSITIVE_INFINITY;
            else if (!allowed) retryAfterMs = Number((costMicro - micro + rate - 1n) / rate);
            const expected = { allowed, retryAfterMs, remaining: Number(left / 1_000_000n) };
            if (peek) {
              expect(buckets.peek(`k${key}`, cost)).toEqual(expected);
            } else {
              expect(buckets.take(`k${key}`, cost)).toEqual(expected);
              if (cost <= capacity) model.set(key, { micro: left, at: now });
            }
          }
        },
      ),
    );
  });
});
