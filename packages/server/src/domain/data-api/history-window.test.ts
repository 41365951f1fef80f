import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bucketStart, INTERVAL_MS, type Interval, windowOf } from './history-window.js';

const INTERVALS: Interval[] = ['FIVEMIN', 'HOUR', 'DAY', 'WEEK'];

describe('bucketStart', () => {
  it('puts every instant in the one bucket that holds it, aligned in UTC (weeks from Monday)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_102_444_800_000 }), fc.constantFrom(...INTERVALS), (ms, interval) => {
        const start = bucketStart(ms, interval);
        expect(start).toBeLessThanOrEqual(ms);
        expect(ms).toBeLessThan(start + INTERVAL_MS[interval]);
        expect(bucketStart(start, interval)).toBe(start);
        const date = new Date(start);
        expect(date.getUTCSeconds()).toBe(0);
        expect(date.getUTCMinutes() % 5).toBe(0);
        if (interval !== 'FIVEMIN') expect(date.getUTCMinutes()).toBe(0);
        if (interval === 'DAY' || interval === 'WEEK') expect(date.getUTCHours()).toBe(0);
        if (interval === 'WEEK') expect(date.getUTCDay()).toBe(1);
      }),
    );
  });

  it('covers every bucket that overlaps from..to', () => {
    expect(windowOf(Date.UTC(2026, 0, 1, 10, 30), Date.UTC(2026, 0, 1, 12, 0), 'HOUR')).toEqual({
      interval: 'HOUR',
      startMs: Date.UTC(2026, 0, 1, 10),
      endMs: Date.UTC(2026, 0, 1, 13),
    });
  });
});
