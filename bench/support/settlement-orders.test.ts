import { describe, expect, it } from 'vitest';
import { poolTakerCounts } from './settlement-orders.js';

describe('poolTakerCounts', () => {
  it('opts in the share of each unit, an even number, carrying the rounding', () => {
    expect(poolTakerCounts(800, 100, 0.5)).toEqual([100, 100, 100, 100]);
    expect(poolTakerCounts(800, 100, 0)).toEqual([0, 0, 0, 0]);
    expect(poolTakerCounts(400, 100, 1)).toEqual([200, 200]);
    const counts = poolTakerCounts(1_000, 5, 0.33);
    expect(counts.every((count) => count % 2 === 0 && count <= 10)).toBe(true);
    expect(Math.abs(counts.reduce((sum, count) => sum + count, 0) - 330)).toBeLessThanOrEqual(1);
  });

  it('fits the last, shorter unit', () => {
    expect(poolTakerCounts(248, 100, 0.5)).toEqual([100, 24]);
    expect(poolTakerCounts(8, 100, 1)).toEqual([8]);
  });
});
