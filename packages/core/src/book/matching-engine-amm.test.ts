import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { amountIn, amountOut } from '../amm/constant-product.js';
import type { PoolGrid, PoolReserves } from '../amm/pool-leg.js';
import { fillsOf, limit, recordingEngine, statusesOf } from '../test-support/engine-fixtures.js';
import type { EngineEvent, PoolFillEvent } from './events.js';
import type { MatchingEngineOptions } from './matching-engine.js';
import { BUY, type PlaceOrder, SELL, type Side } from './types.js';

/** WHBAR in USDC as on the devnet: one tick of one size step (0.1 HBAR) is 1 raw USDC. */
const GRID: PoolGrid = { sizeStepRaw: 10_000_000n, stepValue: { num: 1n, den: 1n } };
/** 1,000 HBAR against 50 USDC: about 5,015 ticks to buy from, 4,985 to sell into. */
const POOL: PoolReserves = { base: 100_000_000_000n, quote: 50_000_000n };
const WITH_POOL: MatchingEngineOptions = { poolGrid: GRID, pool: POOL };

function poolFillsOf(events: readonly EngineEvent[]): PoolFillEvent[] {
  return events.filter((event): event is PoolFillEvent => event.type === 'pool-fill');
}

/** Quote raw units the taker pays (buying) or receives (selling) over all its fills. */
function takerQuote(events: readonly EngineEvent[], takerId: number): bigint {
  let total = 0n;
  for (const event of events) {
    if (event.type === 'fill' && event.takerId === takerId) total += event.price * BigInt(event.quantity);
    if (event.type === 'pool-fill' && event.takerId === takerId) total += event.quote;
  }
  return total;
}

function takerFilled(events: readonly EngineEvent[], takerId: number): number {
  return events
    .filter((event) => (event.type === 'fill' || event.type === 'pool-fill') && event.takerId === takerId)
    .reduce((sum, event) => sum + (event as { quantity: number }).quantity, 0);
}

describe('MatchingEngine with a liquidity pool', () => {
  it('swaps with the pool before a dearer level and matches the level after', () => {
    const { engine, events } = recordingEngine(WITH_POOL);
    engine.place(limit(1, SELL, 5_100, 10));
    engine.place(limit(2, BUY, 5_200, 150, { useAmm: true, timeInForce: 'IOC' }));
    expect(events.filter((event) => event.type === 'fill' || event.type === 'pool-fill').map((event) => event.type)).toEqual([
      'pool-fill',
      'fill',
      'pool-fill',
    ]);
    const [first, last] = poolFillsOf(events);
    expect(first?.quantity).toBe(83);
    expect(first?.quote).toBe(amountIn(first?.base as bigint, POOL.quote, POOL.base));
    expect(last?.takerRemaining).toBe(0);
    expect(engine.pool).toEqual(last?.reserves);
    expect(statusesOf(events, 2)).toEqual(['OPEN', 'FILLED']);
  });

  it('leaves the pool alone for a taker that did not opt in, and for a takerOnce order', () => {
    const { engine, events } = recordingEngine(WITH_POOL);
    engine.place(limit(1, SELL, 5_100, 10));
    engine.place(limit(2, BUY, 5_200, 5, { timeInForce: 'IOC' }));
    engine.place(limit(3, BUY, 5_200, 5, { timeInForce: 'IOC', takerOnce: true, useAmm: true }));
    expect(poolFillsOf(events)).toEqual([]);
    expect(fillsOf(events)).toHaveLength(2);
    expect(engine.pool).toEqual(POOL);
  });

  it('gives a tie to the book', () => {
    // After one step bought the pool's marginal price is 1000·Q·B·step / (997·(B − step)²) = 4,000
    // ticks exactly, the level's price, so the pool keeps that step.
    const pool = { base: 20_000_000n, quote: 1_994n };
    const { engine, events } = recordingEngine({ poolGrid: GRID, pool });
    engine.place(limit(1, SELL, 4_000, 3));
    engine.place(limit(2, BUY, 4_000, 3, { useAmm: true }));
    expect(poolFillsOf(events)).toEqual([]);
    expect(fillsOf(events).map((fill) => fill.quantity)).toEqual([3]);
    // With nothing on the book, the pool serves up to the limit, where reaching the price is allowed.
    engine.place(limit(3, BUY, 4_000, 3, { useAmm: true }));
    expect(poolFillsOf(events).map((fill) => [fill.quantity, fill.quote])).toEqual([[1, 2_001n]]);
  });

  it('sells into the pool when it pays more than the best bid', () => {
    const { engine, events } = recordingEngine(WITH_POOL);
    engine.place(limit(1, BUY, 4_900, 50));
    engine.place(limit(2, SELL, 4_800, 60, { useAmm: true }));
    const [swap] = poolFillsOf(events);
    expect(swap?.quote).toBe(amountOut(swap?.base as bigint, POOL.base, POOL.quote));
    expect(swap?.quote).toBeGreaterThanOrEqual(4_900n * BigInt(swap?.quantity ?? 0));
    expect(takerFilled(events, 2)).toBe(60);
  });

  it('rests what neither the pool nor the book would fill at the limit', () => {
    const { engine, events } = recordingEngine(WITH_POOL);
    engine.place(limit(1, BUY, 5_100, 1_000_000, { useAmm: true }));
    expect(engine.getOrder(1)?.remaining).toBe(1_000_000 - (poolFillsOf(events)[0]?.quantity ?? 0));
    expect(engine.depth().bids).toEqual([[5_100n, engine.getOrder(1)?.remaining]]);
  });

  it('takes a new pool snapshot from a command and hashes it into the state', () => {
    const { engine } = recordingEngine(WITH_POOL);
    const before = engine.stateHash();
    expect(engine.apply({ type: 'pool', reserves: { base: POOL.base, quote: POOL.quote + 1n }, time: 1 })).toBe(true);
    expect(engine.stateHash()).not.toBe(before);
    engine.apply({ type: 'pool', reserves: POOL, time: 2 });
    expect(engine.stateHash()).toBe(before);
    engine.apply({ type: 'pool', reserves: undefined, time: 3 });
    engine.place(limit(9, BUY, 9_000, 5, { useAmm: true }));
    expect(engine.getOrder(9)?.remaining).toBe(5);
  });
});

const makers = fc.array(
  fc.record({ price: fc.integer({ min: 4_700, max: 5_300 }), quantity: fc.integer({ min: 1, max: 400 }) }),
  { maxLength: 25 },
);
const takers = fc.record({
  side: fc.constantFrom<Side>(BUY, SELL),
  price: fc.integer({ min: 4_500, max: 5_500 }),
  quantity: fc.integer({ min: 1, max: 20_000 }),
  ioc: fc.boolean(),
});
const pools = fc.record({
  base: fc.bigInt({ min: 10n ** 10n, max: 10n ** 13n }),
  price: fc.integer({ min: 4_600, max: 5_400 }),
});

describe('routing properties', () => {
  it('never gives a worse price than the book alone, never crosses the limit, and prices every swap by the pair', () => {
    const swapped = [0, 0];
    fc.assert(
      fc.property(makers, takers, pools, (resting, taker, poolSeed) => {
        const pool = { base: poolSeed.base, quote: (poolSeed.base * BigInt(poolSeed.price)) / GRID.sizeStepRaw };
        const routed = recordingEngine({ poolGrid: GRID, pool });
        const bookOnly = recordingEngine();
        const makerSide = taker.side === BUY ? SELL : BUY;
        resting.forEach((maker, index) => {
          // Makers rest on their own side of the taker so none of them trade with each other.
          const order = limit(index + 1, makerSide, maker.price, maker.quantity);
          routed.engine.place(order);
          bookOnly.engine.place(order);
        });
        const order: PlaceOrder = limit(1_000, taker.side, taker.price, taker.quantity, {
          timeInForce: taker.ioc ? 'IOC' : 'GTC',
          useAmm: true,
        });
        routed.engine.place(order);
        bookOnly.engine.place({ ...order, useAmm: false });

        const routedFilled = takerFilled(routed.events, 1_000);
        const aloneFilled = takerFilled(bookOnly.events, 1_000);
        expect(routedFilled).toBeGreaterThanOrEqual(aloneFilled);
        if (aloneFilled === taker.quantity) {
          const routedQuote = takerQuote(routed.events, 1_000);
          const aloneQuote = takerQuote(bookOnly.events, 1_000);
          if (taker.side === BUY) expect(routedQuote).toBeLessThanOrEqual(aloneQuote);
          else expect(routedQuote).toBeGreaterThanOrEqual(aloneQuote);
        }

        let reserves = pool;
        for (const event of routed.events) {
          if (event.type === 'fill') {
            if (taker.side === BUY) expect(event.price).toBeLessThanOrEqual(BigInt(taker.price));
            else expect(event.price).toBeGreaterThanOrEqual(BigInt(taker.price));
          }
          if (event.type !== 'pool-fill') continue;
          const atLimit = BigInt(taker.price) * BigInt(event.quantity);
          if (taker.side === BUY) {
            expect(event.quote).toBeLessThanOrEqual(atLimit);
            expect(event.quote).toBe(amountIn(event.base, reserves.quote, reserves.base));
          } else {
            expect(event.quote).toBeGreaterThanOrEqual(atLimit);
            expect(event.quote).toBe(amountOut(event.base, reserves.base, reserves.quote));
          }
          reserves = event.reserves;
          swapped[taker.side] = (swapped[taker.side] ?? 0) + 1;
        }
        expect(routed.engine.pool).toEqual(reserves);
      }),
      { numRuns: 300 },
    );
    // The flows must exercise the pool on both sides for the properties to mean anything.
    expect(Math.min(...swapped)).toBeGreaterThan(50);
  });
});
