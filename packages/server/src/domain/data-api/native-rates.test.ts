import { gridSpecOfDisplay, MarketGrid, ratio } from '@dex/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type BookPrice, nativeRates, TINYBAR_PER_COIN, times, toNumber } from './native-rates.js';

const NATIVE = { id: '0.0.1', decimals: 8 };

/** Grids of any token decimals, exact and finer than a quote raw unit alike. */
const grids = fc
  .record({
    baseDecimals: fc.integer({ min: 0, max: 18 }),
    quoteDecimals: fc.integer({ min: 0, max: 18 }),
    tickScale: fc.integer({ min: 0, max: 14 }),
    sizeScale: fc.integer({ min: 0, max: 6 }),
  })
  .filter(({ baseDecimals, sizeScale }) => sizeScale <= baseDecimals)
  .map(
    ({ baseDecimals, quoteDecimals, tickScale, sizeScale }) =>
      new MarketGrid(
        gridSpecOfDisplay({
          baseDecimals,
          quoteDecimals,
          tickStep: (10 ** -tickScale).toFixed(tickScale),
          sizeStep: (10 ** -sizeScale).toFixed(sizeScale),
          lotSize: (10 ** -sizeScale).toFixed(sizeScale),
          minNotional: '0',
        }),
      ),
  );

function book(bookId: number, baseId: string, quoteId: string, grid: MarketGrid, ticks: number | null): BookPrice {
  return { bookId, baseId, quoteId, grid, ticks: ticks === null ? null : BigInt(ticks) };
}

/** The exact quote value of `steps` at `ticks`, in raw units. */
const fillValue = (grid: MarketGrid, ticks: number, steps: number) =>
  ratio(BigInt(ticks) * BigInt(steps) * grid.stepValue.num, grid.stepValue.den);

describe('nativeRates', () => {
  it('prices the native token at exactly one coin per whole token', () => {
    const rate = nativeRates([], NATIVE).get(NATIVE.id);
    expect(rate).toEqual({ rate: ratio(1n, 1n), via: null, hops: 0 });
    expect(times(rate?.rate ?? ratio(0n, 1n), ratio(10n ** 8n, 1n))).toEqual(ratio(TINYBAR_PER_COIN, 1n));
  });

  it('values both sides of any fill equally, whichever side of the book the native token is on', () => {
    fc.assert(
      fc.property(
        grids,
        fc.integer({ min: 1, max: 10_000_000 }),
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.boolean(),
        (grid, ticks, steps, nativeIsQuote) => {
          const native = { id: NATIVE.id, decimals: nativeIsQuote ? grid.spec.quoteDecimals : grid.spec.baseDecimals };
          const books = [nativeIsQuote ? book(1, '0.0.2', NATIVE.id, grid, ticks) : book(1, NATIVE.id, '0.0.2', grid, ticks)];
          const rates = nativeRates(books, native);
          const baseRate = rates.get(nativeIsQuote ? '0.0.2' : NATIVE.id)?.rate;
          const quoteRate = rates.get(nativeIsQuote ? NATIVE.id : '0.0.2')?.rate;
          if (baseRate === undefined || quoteRate === undefined) throw new Error('a token was left unpriced');
          const baseValue = times(baseRate, ratio(grid.baseAmount(steps), 1n));
          const quoteValue = times(quoteRate, fillValue(grid, ticks, steps));
          expect(baseValue).toEqual(quoteValue);
        },
      ),
    );
  });

  it('chains rates exactly through a second book', () => {
    fc.assert(
      fc.property(
        grids,
        grids,
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.integer({ min: 1, max: 1_000_000 }),
        (first, second, t1, t2) => {
          // A/native on the first book, B/A on the second: one raw B is worth its A, which is worth its tinybar.
          const native = { id: NATIVE.id, decimals: first.spec.quoteDecimals };
          const rates = nativeRates([book(1, 'A', NATIVE.id, first, t1), book(2, 'B', 'A', second, t2)], native);
          const a = rates.get('A');
          const b = rates.get('B');
          expect(a?.hops).toBe(1);
          expect(b).toMatchObject({ via: 2, hops: 2 });
          const bInA = times(fillValue(second, t2, 1), ratio(1n, second.baseAmount(1)));
          expect(b?.rate).toEqual(times(a?.rate ?? ratio(0n, 1n), bInA));
        },
      ),
    );
  });

  it('takes the path of fewest books, the lower book id on a tie, and skips books that never traded', () => {
    const grid = new MarketGrid({
      baseDecimals: 8,
      quoteDecimals: 8,
      tickStep: '0.01',
      sizeStep: '1',
      lotSize: 100_000_000n,
      minNotional: 0n,
    });
    const rates = nativeRates(
      [
        book(5, 'C', 'B', grid, 100),
        book(4, 'C', NATIVE.id, grid, null),
        book(3, 'B', NATIVE.id, grid, 200),
        book(2, 'C', 'D', grid, 100),
        book(1, 'D', NATIVE.id, grid, 300),
      ],
      NATIVE,
    );
    expect(rates.get('B')).toMatchObject({ via: 3, hops: 1 });
    expect(rates.get('D')).toMatchObject({ via: 1, hops: 1 });
    expect(rates.get('C')).toMatchObject({ via: 2, hops: 2 });
    expect(nativeRates([book(4, 'C', NATIVE.id, grid, null)], NATIVE).has('C')).toBe(false);
  });
});

describe('toNumber', () => {
  it('agrees with float division to within rounding', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 40n }), fc.bigInt({ min: 1n, max: 10n ** 40n }), (num, den) => {
        const expected = Number(num) / Number(den);
        expect(Math.abs(toNumber(ratio(num, den)) - expected) / expected).toBeLessThan(1e-14);
      }),
    );
  });

  it('is exact for short decimals', () => {
    expect(toNumber(ratio(751n, 1_000n))).toBe(0.751);
    expect(toNumber(ratio(-1n, 5n))).toBe(-0.2);
    expect(toNumber(ratio(0n, 7n))).toBe(0);
  });
});
