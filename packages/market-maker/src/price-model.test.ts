import { describe, expect, it } from 'vitest';
import { PriceModel } from './price-model.js';
import { Prng } from './prng.js';

const walk = (seed: number, steps: number, options = { stepBps: 50, bandBps: 500 }) => {
  const model = new PriceModel(new Prng(seed), options);
  model.add(1, 25_000);
  model.add(3, 2_000);
  return Array.from({ length: steps }, () => [model.step(1), model.step(3)]);
};

describe('price model', () => {
  it('is deterministic for a seed and differs between seeds', () => {
    expect(walk(42, 200)).toEqual(walk(42, 200));
    expect(walk(42, 200)).not.toEqual(walk(43, 200));
  });

  it('moves in whole ticks by at most the step size, and stays within its band', () => {
    let previous = [25_000, 2_000];
    const seen = new Set<number>();
    for (const mids of walk(7, 5_000)) {
      const [whbar, sauce] = mids as [number, number];
      expect(Number.isInteger(whbar) && Number.isInteger(sauce)).toBe(true);
      // 50 bps of 25,000 ticks is 125 ticks; of 2,000, 10.
      expect(Math.abs(whbar - (previous[0] as number))).toBeLessThanOrEqual(125);
      expect(Math.abs(sauce - (previous[1] as number))).toBeLessThanOrEqual(10);
      // A 5 % band.
      expect(whbar).toBeGreaterThanOrEqual(23_750);
      expect(whbar).toBeLessThanOrEqual(26_250);
      expect(sauce).toBeGreaterThanOrEqual(1_900);
      expect(sauce).toBeLessThanOrEqual(2_100);
      seen.add(whbar);
      previous = mids;
    }
    // It wanders over the band rather than sticking to an edge.
    expect(Math.max(...seen) - Math.min(...seen)).toBeGreaterThan(2_000);
  });

  it('moves at least a tick per step however small the mid', () => {
    const model = new PriceModel(new Prng(1), { stepBps: 1, bandBps: 2_000 });
    model.add(1, 50);
    const mids = Array.from({ length: 100 }, () => model.step(1));
    expect(new Set(mids).size).toBeGreaterThan(1);
    for (const mid of mids) expect(mid).toBeGreaterThanOrEqual(40);
  });
});
