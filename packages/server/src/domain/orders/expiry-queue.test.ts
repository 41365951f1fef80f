import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ExpiryQueue } from './expiry-queue.js';

describe('ExpiryQueue', () => {
  it('returns nothing before the earliest deadline', () => {
    const queue = new ExpiryQueue();
    queue.push(1_000, 1);
    expect(queue.popDue(999)).toEqual([]);
    expect(queue.popDue(1_000)).toEqual([1]);
    expect(queue.size).toBe(0);
  });

  it('pops exactly the due entries, earliest deadline first, ties by id', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 50 }), fc.integer({ min: 1, max: 1_000 })), { maxLength: 200 }),
        fc.integer({ min: 0, max: 50 }),
        (entries, now) => {
          const queue = new ExpiryQueue();
          for (const [deadline, id] of entries) queue.push(deadline, id);
          const expected = entries
            .filter(([deadline]) => deadline <= now)
            .sort((a, b) => a[0] - b[0] || a[1] - b[1])
            .map(([, id]) => id);
          expect(queue.popDue(now)).toEqual(expected);
          expect(queue.size).toBe(entries.length - expected.length);
        },
      ),
    );
  });
});
