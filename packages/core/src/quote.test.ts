import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MatchingEngine } from './book/matching-engine.js';
import { BUY, SELL } from './book/types.js';
import { MarketGrid } from './grid.js';
import { quoteExactInput, quoteExactOutput } from './quote.js';
import { HBAR_USDC_GRID, limit } from './test-support/engine-fixtures.js';

/** WHBAR/USDC: size step 0.1 WHBAR = 10^7 raw, one tick-step = 1 USDC raw unit, lot 1 WHBAR. */
const grid = new MarketGrid(HBAR_USDC_GRID);

function book(): MatchingEngine {
  const engine = new MatchingEngine(() => {});
  engine.place(limit(1, SELL, 25_000, 20));
  engine.place(limit(2, SELL, 25_100, 30));
  engine.place(limit(3, BUY, 24_900, 50));
  return engine;
}

describe('quoteExactInput', () => {
  it('sells base into the bids after flooring the input onto the size grid', () => {
    expect(quoteExactInput(book(), grid, 'base', 305_000_000n, 50)).toEqual({
      snappedInput: 300_000_000n,
      consumedInput: 300_000_000n,
      expectedOutput: 747_000n,
      suggestedOutput: 743_265n,
      fillable: true,
    });
  });

  it('spends quote on whole size steps across ask levels', () => {
    expect(quoteExactInput(book(), grid, 'quote', 10_000_000n, 50)).toEqual({
      snappedInput: 10_000_000n,
      consumedInput: 1_253_000n,
      expectedOutput: 500_000_000n,
      suggestedOutput: 497_500_000n,
      fillable: true,
    });
  });

  it('stops at the first step it cannot afford', () => {
    const quote = quoteExactInput(book(), grid, 'quote', 60_000n, 0);
    expect(quote).toMatchObject({ consumedInput: 50_000n, expectedOutput: 20_000_000n });
  });

  it('snaps an input below the lot size to zero', () => {
    expect(quoteExactInput(book(), grid, 'base', 50_000_000n, 50)).toMatchObject({
      snappedInput: 0n,
      expectedOutput: 0n,
      fillable: true,
    });
  });

  it('reports an empty side as not fillable', () => {
    const empty = new MatchingEngine(() => {});
    expect(quoteExactInput(empty, grid, 'base', 300_000_000n, 50)).toMatchObject({ expectedOutput: 0n, fillable: false });
  });

  it('refuses a slippage outside 0..9999 bps', () => {
    expect(() => quoteExactInput(book(), grid, 'base', 1n, 10_000)).toThrow(/slippage/);
    expect(() => quoteExactInput(book(), grid, 'base', 1n, -1)).toThrow(/slippage/);
  });
});

describe('quoteExactOutput', () => {
  it('prices a base output across ask levels and raises it by the slippage', () => {
    expect(quoteExactOutput(book(), grid, 'base', 250_000_000n, 50)).toEqual({
      snappedOutput: 250_000_000n,
      expectedInput: 625_500n,
      suggestedInput: 628_628n,
      fillable: true,
    });
  });

  it('is not fillable when the book is shallower than the requested output', () => {
    expect(quoteExactOutput(book(), grid, 'base', 600_000_000n, 50)).toMatchObject({
      fillable: false,
      expectedInput: 1_253_000n,
    });
  });

  it('sells whole size steps until the quote proceeds reach the request, suggesting an on-grid input', () => {
    expect(quoteExactOutput(book(), grid, 'quote', 500_000n, 50)).toEqual({
      snappedOutput: 522_900n,
      expectedInput: 210_000_000n,
      suggestedInput: 220_000_000n,
      fillable: true,
    });
  });

  it('never suggests less than expected, and the suggested base input stays on the grid', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 2_000_000n }), fc.integer({ min: 0, max: 500 }), (amount, bps) => {
        const quote = quoteExactOutput(book(), grid, 'quote', amount, bps);
        expect(quote.suggestedInput >= quote.expectedInput).toBe(true);
        expect(quote.suggestedInput % grid.sizeStepRaw).toBe(0n);
        if (quote.fillable) expect(quote.snappedOutput >= amount).toBe(true);
        const input = quoteExactInput(book(), grid, 'base', amount * 1000n, bps);
        expect(input.suggestedOutput <= input.expectedOutput).toBe(true);
        expect(input.consumedInput <= input.snappedInput).toBe(true);
      }),
    );
  });
});
