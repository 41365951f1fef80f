import { toDisplay } from '@dex/sdk';
import { describe, expect, it } from 'vitest';
import { Prng } from './prng.js';
import { type Level, Quoter, type QuoterOptions } from './quoter.js';
import { SEED_BOOKS } from './test-support/seed-books.js';
import { TickGrid } from './tick-grid.js';

const OPTIONS: QuoterOptions = { levels: 5, spreadBps: 20, levelGapBps: 10, sizeMultiple: 10, quoteLifetimeSeconds: 600 };

const quoter = (options: Partial<QuoterOptions> = {}) =>
  new Quoter(new TickGrid(SEED_BOOKS.whbarUsdc), 25_000, { ...OPTIONS, ...options }, new Prng(5));

const side = (levels: Level[], which: 'buy' | 'sell') =>
  levels.filter((level) => level.side === which).map((level) => level.ticks);

describe('quoter', () => {
  it('lays a ladder of levels on each side, best first, a gap apart, the spread around the mid', () => {
    // 20 bps of 0.25 is 50 ticks (25 each side); 10 bps is a gap of 25 ticks.
    const levels = quoter().ladder(25_010);
    expect(side(levels, 'buy')).toEqual([24_975, 24_950, 24_925, 24_900, 24_875]);
    expect(side(levels, 'sell')).toEqual([25_050, 25_075, 25_100, 25_125, 25_150]);
  });

  it('keeps its levels where they are while the mid moves within a gap', () => {
    const q = quoter();
    expect(q.ladder(25_001)).toEqual(q.ladder(25_024));
    expect(q.ladder(25_001)).not.toEqual(q.ladder(25_026));
  });

  it('leaves out bids that would reach a price of zero', () => {
    const q = new Quoter(new TickGrid(SEED_BOOKS.whbarUsdc), 2, { ...OPTIONS, spreadBps: 5_000 }, new Prng(1));
    const levels = q.ladder(2);
    expect(side(levels, 'buy')).toEqual([1]);
    expect(side(levels, 'sell')).toHaveLength(5);
  });

  it('sizes deeper levels larger, never below the smallest order the book takes', () => {
    const q = quoter();
    const grid = new TickGrid(SEED_BOOKS.whbarUsdc);
    for (const level of q.ladder(25_000)) {
      const steps = q.steps(level);
      const base = grid.minSteps(level.ticks) * OPTIONS.sizeMultiple;
      expect(steps).toBeGreaterThanOrEqual((level.level + 1) * base - base / 4);
      expect(steps).toBeLessThanOrEqual((level.level + 1) * base + base / 4);
    }
    const tiny = quoter({ sizeMultiple: 1 });
    for (const level of tiny.ladder(25_000)) expect(tiny.steps(level)).toBeGreaterThanOrEqual(grid.minSteps(level.ticks));
  });

  it('makes maker-only limit orders with exact amounts and the quote lifetime as deadline', () => {
    const q = quoter();
    const [bid, ask] = q.ladder(25_000);
    if (bid === undefined || ask === undefined) throw new Error('no levels');
    const buy = q.order(bid, 100, 1_000_000);
    // 10 WHBAR bought at 0.24975 (2.4975 USDC) and sold at 0.25025 (2.5025 USDC).
    expect(buy).toMatchObject({ orderbookId: 1, type: 'LIMIT', makerOnly: true, deadline: 1_000_600 });
    expect(toDisplay(buy.inputAmount, 6)).toBe('2.4975');
    expect(toDisplay(buy.outputAmount, 8)).toBe('10');
    const sell = q.order(ask, 100, 1_000_000);
    expect(toDisplay(sell.inputAmount, 8)).toBe('10');
    expect(toDisplay(sell.outputAmount, 6)).toBe('2.5025');
  });
});
