import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { bucketStart, CANDLE_INTERVALS, INTERVAL_MS, type Interval, parseRecentQuery, windowOf } from './history-window.js';

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

describe('parseRecentQuery', () => {
  const NOW = Date.UTC(2026, 10, 22, 12, 34, 56);
  const bounds = { defaultBuckets: 500, maxBuckets: 1_000 };
  const parse = (query: Record<string, string>) => parseRecentQuery(query, CANDLE_INTERVALS, NOW, bounds);
  const codeOf = (query: Record<string, string>) => {
    try {
      parse(query);
      return undefined;
    } catch (error) {
      return error instanceof AppError ? error.code : error;
    }
  };

  it('spans the default number of buckets up to now, the running one last', () => {
    fc.assert(
      fc.property(fc.constantFrom(...INTERVALS), (interval) => {
        const window = parse({ interval });
        expect(window.endMs).toBe(bucketStart(NOW, interval) + INTERVAL_MS[interval]);
        expect((window.endMs - window.startMs) / INTERVAL_MS[interval]).toBe(500);
      }),
    );
  });

  it('counts the default window back from a given to, and never before 0', () => {
    expect(parse({ interval: 'HOUR', to: String(Date.UTC(2026, 0, 1, 10, 30) / 1000) })).toEqual({
      interval: 'HOUR',
      startMs: Date.UTC(2026, 0, 1, 10) - 499 * INTERVAL_MS.HOUR,
      endMs: Date.UTC(2026, 0, 1, 11),
    });
    expect(parse({ interval: 'DAY', to: '86400' })).toEqual({ interval: 'DAY', startMs: 0, endMs: 2 * INTERVAL_MS.DAY });
  });

  it('refuses a window wider than the cap, a from after to and a missing interval', () => {
    const from = Date.UTC(2026, 0, 1) / 1000;
    expect(codeOf({ interval: 'FIVEMIN', from: String(from), to: String(from + 999 * 300) })).toBeUndefined();
    expect(codeOf({ interval: 'FIVEMIN', from: String(from), to: String(from + 1000 * 300) })).toBe('INVALID_TIME_RANGE');
    expect(codeOf({ interval: 'HOUR', from: String(NOW / 1000 + 1) })).toBe('INVALID_TIME_RANGE');
    expect(codeOf({ from: String(from) })).toBe('MISSING_PARAMETER');
  });
});
