import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { amountIn, amountOut, isqrt, smallestRootAbove } from './constant-product.js';

describe('constant-product arithmetic', () => {
  it('keeps 0.30 % of the input as the fee', () => {
    // 1,000 in against 1,000,000 / 1,000,000: 997,000,000,000 / 1,000,997,000 = 996.006…
    expect(amountOut(1_000n, 1_000_000n, 1_000_000n)).toBe(996n);
  });

  it('pays nothing for nothing and nothing from an empty pool', () => {
    expect(amountOut(0n, 10n, 10n)).toBe(0n);
    expect(amountOut(5n, 0n, 10n)).toBe(0n);
  });

  it('never prices the whole reserve', () => {
    expect(amountIn(10n, 100n, 10n)).toBeUndefined();
    expect(amountIn(0n, 100n, 10n)).toBeUndefined();
  });

  it('asks the smallest input that buys the output, one unit more when the price divides exactly, as the Solidity library does', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1_000n, max: 10n ** 18n }),
        fc.bigInt({ min: 1_000n, max: 10n ** 18n }),
        fc.bigInt({ min: 1n, max: 10n ** 18n }),
        (reserveIn, reserveOut, wantedSeed) => {
          const wanted = 1n + (wantedSeed % (reserveOut - 1n));
          const input = amountIn(wanted, reserveIn, reserveOut) as bigint;
          // AmmMath.amountIn (Uniswap's getAmountIn) is floor(n / d) + 1: one over the least when d divides n.
          const exact = (reserveIn * wanted * 1000n) % ((reserveOut - wanted) * 997n) === 0n;
          const least = exact ? input - 1n : input;
          expect(amountOut(least, reserveIn, reserveOut)).toBeGreaterThanOrEqual(wanted);
          expect(amountOut(least - 1n, reserveIn, reserveOut)).toBeLessThan(wanted);
        },
      ),
    );
  });

  it('answers one unit over the least input when the price divides exactly (a case the property test found)', () => {
    const [reserveIn, reserveOut, wanted] = [178_923_020_307_544_676n, 1_000n, 872n];
    const input = amountIn(wanted, reserveIn, reserveOut) as bigint;
    expect(amountOut(input - 1n, reserveIn, reserveOut)).toBe(wanted);
    expect(amountOut(input - 2n, reserveIn, reserveOut)).toBeLessThan(wanted);
  });

  it('never lets the product of the reserves fall', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 20n }),
        fc.bigInt({ min: 1n, max: 10n ** 20n }),
        fc.bigInt({ min: 1n, max: 10n ** 20n }),
        (reserveIn, reserveOut, input) => {
          const out = amountOut(input, reserveIn, reserveOut);
          expect((reserveIn + input) * (reserveOut - out)).toBeGreaterThanOrEqual(reserveIn * reserveOut);
        },
      ),
    );
  });

  it('takes integer square roots of numbers of any size', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 80n }), (value) => {
        const root = isqrt(value);
        expect(root * root).toBeLessThanOrEqual(value);
        expect((root + 1n) * (root + 1n)).toBeGreaterThan(value);
      }),
    );
    expect(() => isqrt(-1n)).toThrow(RangeError);
  });

  it('finds the smallest root above a ratio, strict or inclusive', () => {
    expect(smallestRootAbove(16n, 1n, true)).toBe(4n);
    expect(smallestRootAbove(16n, 1n, false)).toBe(5n);
    expect(smallestRootAbove(0n, 3n, true)).toBe(0n);
    expect(smallestRootAbove(0n, 3n, false)).toBe(1n);
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 60n }),
        fc.bigInt({ min: 1n, max: 10n ** 20n }),
        fc.boolean(),
        (num, den, inclusive) => {
          const holds = (x: bigint) => (inclusive ? x * x * den >= num : x * x * den > num);
          const root = smallestRootAbove(num, den, inclusive);
          expect(holds(root)).toBe(true);
          if (root > 0n) expect(holds(root - 1n)).toBe(false);
        },
      ),
    );
  });
});
