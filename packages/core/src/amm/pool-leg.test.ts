import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BUY, SELL, type Side } from '../book/types.js';
import { amountIn, amountOut } from './constant-product.js';
import { type PoolGrid, type PoolReserves, poolLeg, poolPriceBounds } from './pool-leg.js';

/** WHBAR (8 dp, size step 0.1) in USDC (6 dp, tick 0.00001): one tick of one step is 1 raw USDC. */
const GRID: PoolGrid = { sizeStepRaw: 10_000_000n, stepValue: { num: 1n, den: 1n } };
/** The live HBAR/USDC grid (tick 0.0000001): one tick of one step is a hundredth of a raw USDC. */
const FINE: PoolGrid = { sizeStepRaw: 10_000_000n, stepValue: { num: 1n, den: 100n } };
/** 1,000,000 HBAR against 50,000 USDC: a marginal price of about 0.05015 (5,015 ticks) to buy. */
const POOL: PoolReserves = { base: 100_000_000_000_000n, quote: 50_000_000_000n };

/** The pool's marginal price per size step after a leg, as a fraction [num, den] of quote raw. */
function marginal(pool: PoolReserves, side: Side, steps: bigint, grid: PoolGrid): [bigint, bigint] {
  const base = steps * grid.sizeStepRaw;
  if (side === BUY) {
    const left = pool.base - base;
    return [1000n * pool.quote * pool.base * grid.sizeStepRaw, 997n * left * left];
  }
  const scaled = 1000n * pool.base + 997n * base;
  return [997n * 1000n * pool.quote * pool.base * grid.sizeStepRaw, scaled * scaled];
}

/** Whether the marginal price after `steps` is still better than `ticks` (strictly, or at most for a limit). */
function beats(pool: PoolReserves, side: Side, steps: bigint, ticks: bigint, inclusive: boolean, grid = GRID): boolean {
  const [num, den] = marginal(pool, side, steps, grid);
  // The price of `ticks` per size step is ticks · stepValue; compare num/den with it exactly.
  const price = ticks * grid.stepValue.num * den;
  const scaledNum = num * grid.stepValue.den;
  if (side === BUY) return inclusive ? scaledNum <= price : scaledNum < price;
  return inclusive ? scaledNum >= price : scaledNum > price;
}

const grids = fc.constantFrom(GRID, FINE);

const pools = fc.record({
  base: fc.bigInt({ min: 10n ** 9n, max: 10n ** 16n }),
  quote: fc.bigInt({ min: 10n ** 6n, max: 10n ** 13n }),
});

describe('poolLeg', () => {
  it('buys from the pool until its marginal price reaches the next level, and no further', () => {
    const leg = poolLeg(POOL, GRID, BUY, 5_100n, 'before', 1_000_000);
    expect(leg?.steps).toBe(83_638);
    expect(beats(POOL, BUY, 83_638n, 5_100n, false)).toBe(true);
    expect(beats(POOL, BUY, 83_639n, 5_100n, false)).toBe(false);
    // The same price on a grid of ticks a hundred times finer.
    expect(poolLeg(POOL, FINE, BUY, 510_000n, 'before', 1_000_000)?.steps).toBe(83_638);
  });

  it('leaves the pool alone when its price is no better than the level (ties go to the book)', () => {
    expect(poolLeg(POOL, GRID, BUY, 5_000n, 'before', 1_000)).toBeUndefined();
    expect(poolLeg(POOL, GRID, SELL, 5_100n, 'before', 1_000)).toBeUndefined();
  });

  it('sells into the pool at any price when the limit is zero', () => {
    const leg = poolLeg(POOL, GRID, SELL, 0n, 'limit', 250);
    expect(leg?.steps).toBe(250);
    expect(leg?.quote).toBe(amountOut(250n * GRID.sizeStepRaw, POOL.base, POOL.quote));
  });

  it('stops at the taker’s quantity', () => {
    expect(poolLeg(POOL, GRID, BUY, 9_000n, 'limit', 17)?.steps).toBe(17);
  });

  it('prices every leg by the pair’s own formula and moves the reserves by it', () => {
    fc.assert(
      fc.property(
        pools,
        grids,
        fc.constantFrom(BUY, SELL),
        fc.bigInt({ min: 1n, max: 100_000_000n }),
        fc.boolean(),
        fc.integer({ min: 1, max: 10_000_000 }),
        (pool, grid, side, ticks, atLimit, maxSteps) => {
          const leg = poolLeg(pool, grid, side, ticks, atLimit ? 'limit' : 'before', maxSteps);
          if (leg === undefined) return;
          expect(leg.base).toBe(BigInt(leg.steps) * GRID.sizeStepRaw);
          if (side === BUY) {
            expect(leg.quote).toBe(amountIn(leg.base, pool.quote, pool.base));
            expect(leg.after).toEqual({ base: pool.base - leg.base, quote: pool.quote + leg.quote });
          } else {
            expect(leg.quote).toBe(amountOut(leg.base, pool.base, pool.quote));
            expect(leg.after).toEqual({ base: pool.base + leg.base, quote: pool.quote - leg.quote });
          }
          expect(leg.after.base * leg.after.quote).toBeGreaterThanOrEqual(pool.base * pool.quote);
        },
      ),
    );
  });

  it('takes the most whole steps whose marginal price beats the bound, and never crosses it on average', () => {
    fc.assert(
      fc.property(
        pools,
        grids,
        fc.constantFrom(BUY, SELL),
        fc.bigInt({ min: 1n, max: 100_000_000n }),
        fc.boolean(),
        (pool, grid, side, ticks, atLimit) => {
          const maxSteps = Number.MAX_SAFE_INTEGER;
          const leg = poolLeg(pool, grid, side, ticks, atLimit ? 'limit' : 'before', maxSteps);
          const steps = BigInt(leg?.steps ?? 0);
          if (leg !== undefined) {
            expect(beats(pool, side, steps, ticks, atLimit, grid)).toBe(true);
            // The leg's quote against its size at the bound, compared exactly.
            const atPrice = ticks * grid.stepValue.num * steps;
            if (side === BUY) expect(leg.quote * grid.stepValue.den).toBeLessThanOrEqual(atPrice);
            else expect(leg.quote * grid.stepValue.den).toBeGreaterThanOrEqual(atPrice);
          }
          const next = steps + 1n;
          const fits = side === SELL || next * grid.sizeStepRaw < pool.base;
          if (fits && (side === BUY || amountOut(next * grid.sizeStepRaw, pool.base, pool.quote) > 0n)) {
            expect(beats(pool, side, next, ticks, atLimit, grid)).toBe(false);
          }
        },
      ),
    );
  });

  it('bounds the prices at which the pool can trade exactly enough never to skip a leg', () => {
    expect(poolPriceBounds(POOL, GRID)).toEqual({ buyFrom: 5_016n, sellTo: 4_985n });
    expect(poolPriceBounds(POOL, FINE)).toEqual({ buyFrom: 501_505n, sellTo: 498_500n });
    fc.assert(
      fc.property(
        pools,
        grids,
        fc.constantFrom(BUY, SELL),
        fc.bigInt({ min: 1n, max: 100_000_000n }),
        fc.boolean(),
        (pool, grid, side, ticks, atLimit) => {
          const leg = poolLeg(pool, grid, side, ticks, atLimit ? 'limit' : 'before', Number.MAX_SAFE_INTEGER);
          const bounds = poolPriceBounds(pool, grid);
          const allowed = side === BUY ? ticks >= bounds.buyFrom : ticks <= bounds.sellTo;
          if (leg !== undefined) expect(allowed).toBe(true);
        },
      ),
      { numRuns: 2_000 },
    );
  });
});
