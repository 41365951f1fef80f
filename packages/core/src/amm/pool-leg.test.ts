import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BUY, SELL, type Side } from '../book/types.js';
import { amountIn, amountOut } from './constant-product.js';
import { type PoolGrid, type PoolReserves, poolLeg, poolPriceBounds } from './pool-leg.js';

/** WHBAR (8 dp, size step 0.1) in USDC (6 dp, tick 0.00001): one tick of one step is 1 raw USDC. */
const GRID: PoolGrid = { sizeStepRaw: 10_000_000n, quotePerTickStep: 1n };
/** 1,000,000 HBAR against 50,000 USDC: a marginal price of about 0.05015 (5,015 ticks) to buy. */
const POOL: PoolReserves = { base: 100_000_000_000_000n, quote: 50_000_000_000n };

/** The pool's marginal price per size step after a leg, as a fraction [num, den] of quote raw. */
function marginal(pool: PoolReserves, side: Side, steps: bigint): [bigint, bigint] {
  const base = steps * GRID.sizeStepRaw;
  if (side === BUY) {
    const left = pool.base - base;
    return [1000n * pool.quote * pool.base * GRID.sizeStepRaw, 997n * left * left];
  }
  const scaled = 1000n * pool.base + 997n * base;
  return [997n * 1000n * pool.quote * pool.base * GRID.sizeStepRaw, scaled * scaled];
}

/** Whether the marginal price after `steps` is still better than `ticks` (strictly, or at most for a limit). */
function beats(pool: PoolReserves, side: Side, steps: bigint, ticks: number, inclusive: boolean): boolean {
  const [num, den] = marginal(pool, side, steps);
  const price = BigInt(ticks) * GRID.quotePerTickStep * den;
  if (side === BUY) return inclusive ? num <= price : num < price;
  return inclusive ? num >= price : num > price;
}

const pools = fc.record({
  base: fc.bigInt({ min: 10n ** 9n, max: 10n ** 16n }),
  quote: fc.bigInt({ min: 10n ** 6n, max: 10n ** 13n }),
});

describe('poolLeg', () => {
  it('buys from the pool until its marginal price reaches the next level, and no further', () => {
    const leg = poolLeg(POOL, GRID, BUY, 5_100, 'before', 1_000_000);
    expect(leg?.steps).toBe(83_638);
    expect(beats(POOL, BUY, 83_638n, 5_100, false)).toBe(true);
    expect(beats(POOL, BUY, 83_639n, 5_100, false)).toBe(false);
  });

  it('leaves the pool alone when its price is no better than the level (ties go to the book)', () => {
    expect(poolLeg(POOL, GRID, BUY, 5_000, 'before', 1_000)).toBeUndefined();
    expect(poolLeg(POOL, GRID, SELL, 5_100, 'before', 1_000)).toBeUndefined();
  });

  it('sells into the pool at any price when the limit is zero', () => {
    const leg = poolLeg(POOL, GRID, SELL, 0, 'limit', 250);
    expect(leg?.steps).toBe(250);
    expect(leg?.quote).toBe(amountOut(250n * GRID.sizeStepRaw, POOL.base, POOL.quote));
  });

  it('stops at the taker’s quantity', () => {
    expect(poolLeg(POOL, GRID, BUY, 9_000, 'limit', 17)?.steps).toBe(17);
  });

  it('prices every leg by the pair’s own formula and moves the reserves by it', () => {
    fc.assert(
      fc.property(
        pools,
        fc.constantFrom(BUY, SELL),
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.boolean(),
        fc.integer({ min: 1, max: 10_000_000 }),
        (pool, side, ticks, atLimit, maxSteps) => {
          const leg = poolLeg(pool, GRID, side, ticks, atLimit ? 'limit' : 'before', maxSteps);
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
        fc.constantFrom(BUY, SELL),
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.boolean(),
        (pool, side, ticks, atLimit) => {
          const maxSteps = Number.MAX_SAFE_INTEGER;
          const leg = poolLeg(pool, GRID, side, ticks, atLimit ? 'limit' : 'before', maxSteps);
          const steps = BigInt(leg?.steps ?? 0);
          if (leg !== undefined) {
            expect(beats(pool, side, steps, ticks, atLimit)).toBe(true);
            const atPrice = BigInt(ticks) * GRID.quotePerTickStep * steps;
            if (side === BUY) expect(leg.quote).toBeLessThanOrEqual(atPrice);
            else expect(leg.quote).toBeGreaterThanOrEqual(atPrice);
          }
          const next = steps + 1n;
          const fits = side === SELL || next * GRID.sizeStepRaw < pool.base;
          if (fits && (side === BUY || amountOut(next * GRID.sizeStepRaw, pool.base, pool.quote) > 0n)) {
            expect(beats(pool, side, next, ticks, atLimit)).toBe(false);
          }
        },
      ),
    );
  });

  it('bounds the prices at which the pool can trade exactly enough never to skip a leg', () => {
    expect(poolPriceBounds(POOL, GRID)).toEqual({ buyFrom: 5_016, sellTo: 4_985 });
    fc.assert(
      fc.property(
        pools,
        fc.constantFrom(BUY, SELL),
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.boolean(),
        (pool, side, ticks, atLimit) => {
          const leg = poolLeg(pool, GRID, side, ticks, atLimit ? 'limit' : 'before', Number.MAX_SAFE_INTEGER);
          const bounds = poolPriceBounds(pool, GRID);
          const allowed = side === BUY ? ticks >= bounds.buyFrom : ticks <= bounds.sellTo;
          if (leg !== undefined) expect(allowed).toBe(true);
        },
      ),
      { numRuns: 2_000 },
    );
  });
});
