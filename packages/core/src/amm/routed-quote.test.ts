import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EngineEvent } from '../book/events.js';
import { BUY, SELL, type Side } from '../book/types.js';
import { gridSpecOfDisplay, MAX_PRICE_TICKS, MarketGrid } from '../grid.js';
import { affordableSteps } from '../order-terms.js';
import { quoteExactInput, quoteExactOutput } from '../quote.js';
import { HBAR_USDC_GRID, limit, recordingEngine } from '../test-support/engine-fixtures.js';

const GRID = new MarketGrid(HBAR_USDC_GRID);
/** The same tokens with ticks a hundred times finer: a tick of one size step is 1/100 raw USDC. */
const FINE = new MarketGrid(gridSpecOfDisplay({ ...HBAR_USDC_GRID, tickStep: '0.0000001', lotSize: '0.1', minNotional: '1' }));
const ANY_PRICE = MAX_PRICE_TICKS;

/**
 * Steps and quote raw units the taker traded over all its fills, book and pool, each book fill at
 * the maker's price rounded towards the maker (the worst `fillQuoteAmount` gives a taker).
 */
function traded(events: readonly EngineEvent[], takerId: number, grid = GRID): { steps: number; quote: bigint } {
  let steps = 0;
  let quote = 0n;
  for (const event of events) {
    if (event.type === 'fill' && event.takerId === takerId) {
      steps += event.quantity;
      quote += grid.quoteAmount(event.price, event.quantity, event.takerSide === BUY ? 'up' : 'down');
    } else if (event.type === 'pool-fill' && event.takerId === takerId) {
      steps += event.quantity;
      quote += event.quote;
    }
  }
  return { steps, quote };
}

const scenario = fc.record({
  makers: fc.array(
    fc.record({
      price: fc.integer({ min: 4_700, max: 5_300 }),
      /** Ticks added on a fine grid, where prices fall between raw units. */
      nudge: fc.integer({ min: 0, max: 99 }),
      quantity: fc.integer({ min: 1, max: 300 }),
    }),
    { maxLength: 15 },
  ),
  side: fc.constantFrom<Side>(BUY, SELL),
  poolBase: fc.bigInt({ min: 10n ** 10n, max: 10n ** 13n }),
  poolPrice: fc.integer({ min: 4_600, max: 5_400 }),
  amount: fc.bigInt({ min: 1n, max: 10n ** 11n }),
});

/** A book with resting makers on the side a taker of `side` meets, and a pool at its own price. */
/** One generated case: resting makers, the taker's side, the pool and an amount. */
type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

function market(spec: Scenario, grid = GRID, tickScale = 1n, withPool = true) {
  const reserves = { base: spec.poolBase, quote: (spec.poolBase * BigInt(spec.poolPrice)) / grid.sizeStepRaw };
  const { engine, events } = recordingEngine(withPool ? { poolGrid: grid, pool: reserves } : {});
  spec.makers.forEach((maker, index) => {
    const price = BigInt(maker.price) * tickScale + BigInt(maker.nudge);
    engine.place(limit(index + 1, spec.side === BUY ? SELL : BUY, price, maker.quantity));
  });
  return { engine, events, pool: { reserves, grid } };
}

describe('quotes with the pool', () => {
  it('quote exactly what the engine then trades, for every kind of market order', () => {
    let routed = 0;
    fc.assert(
      fc.property(scenario, (spec) => {
        const { engine, events, pool } = market(spec);
        const taker = 10_000;
        if (spec.side === SELL) {
          // Exact input of base, and exact output of quote: both sell whole steps.
          const input = quoteExactInput(engine, GRID, 'base', spec.amount, 0, pool);
          const output = quoteExactOutput(engine, GRID, 'quote', spec.amount, 0, pool);
          const steps = Number(input.snappedInput / GRID.sizeStepRaw);
          if (steps > 0) engine.place(limit(taker, SELL, 1, steps, { timeInForce: 'IOC', useAmm: true }));
          expect(traded(events, taker)).toEqual({
            steps: Number(input.consumedInput / GRID.sizeStepRaw),
            quote: input.expectedOutput,
          });
          const again = market(spec);
          const sold = Number(output.expectedInput / GRID.sizeStepRaw);
          if (sold > 0) again.engine.place(limit(taker, SELL, 1, sold, { timeInForce: 'IOC', useAmm: true }));
          expect(traded(again.events, taker).quote).toBe(output.snappedOutput);
          routed += events.some((event) => event.type === 'pool-fill') ? 1 : 0;
        } else {
          // Exact input of quote (a budget), and exact output of base.
          const input = quoteExactInput(engine, GRID, 'quote', spec.amount, 0, pool);
          const steps = affordableSteps(engine, GRID, spec.amount, ANY_PRICE, pool);
          expect(GRID.baseAmount(steps)).toBe(input.expectedOutput);
          const output = quoteExactOutput(engine, GRID, 'base', spec.amount, 0, pool);
          if (steps > 0) engine.place(limit(taker, BUY, ANY_PRICE, steps, { timeInForce: 'IOC', useAmm: true }));
          expect(traded(events, taker)).toEqual({ steps, quote: input.consumedInput });
          const again = market(spec);
          const wanted = Number(output.snappedOutput / GRID.sizeStepRaw);
          if (wanted > 0) again.engine.place(limit(taker, BUY, ANY_PRICE, wanted, { timeInForce: 'IOC', useAmm: true }));
          expect(traded(again.events, taker).quote).toBe(output.expectedInput);
          routed += events.some((event) => event.type === 'pool-fill') ? 1 : 0;
        }
      }),
      { numRuns: 300 },
    );
    expect(routed).toBeGreaterThan(100);
  });

  it('never promise more than the engine then trades on a grid finer than a raw unit, short by under a raw unit a step', () => {
    fc.assert(
      fc.property(scenario, (spec) => {
        const book = () => market(spec, FINE, 100n, false);
        const taker = 10_000;
        const { engine, events } = book();
        const levels = spec.side === SELL ? engine.depth().bids : engine.depth().asks;
        const depth = levels.reduce((sum, [, quantity]) => sum + quantity, 0);
        if (spec.side === SELL) {
          const input = quoteExactInput(engine, FINE, 'base', spec.amount, 0);
          const steps = Number(input.snappedInput / FINE.sizeStepRaw);
          if (steps > 0) engine.place(limit(taker, SELL, 1, steps, { timeInForce: 'IOC' }));
          const sold = traded(events, taker, FINE);
          expect(sold.steps).toBe(Number(input.consumedInput / FINE.sizeStepRaw));
          expect(sold.quote).toBeGreaterThanOrEqual(input.expectedOutput);
          expect(sold.quote - input.expectedOutput).toBeLessThanOrEqual(BigInt(sold.steps));
        } else {
          const steps = affordableSteps(engine, FINE, spec.amount, ANY_PRICE);
          if (steps > 0) engine.place(limit(taker, BUY, ANY_PRICE, steps, { timeInForce: 'IOC' }));
          const bought = traded(events, taker, FINE);
          // The budget pays for every step it sized, however the fills round.
          expect(bought.steps).toBe(steps);
          expect(bought.quote).toBeLessThanOrEqual(spec.amount);
          // And no more: one step beyond costs more than the budget at the quote's prices.
          if (steps < depth) {
            const output = quoteExactOutput(book().engine, FINE, 'base', FINE.baseAmount(steps + 1), 0);
            expect(output.expectedInput).toBeGreaterThan(spec.amount);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('counts the pool as liquidity on an empty book', () => {
    const { engine, pool } = market({ makers: [], side: BUY, poolBase: 10n ** 12n, poolPrice: 5_000, amount: 0n });
    expect(quoteExactOutput(engine, GRID, 'base', 10n ** 9n, 0, pool).fillable).toBe(true);
    const quote = quoteExactOutput(engine, GRID, 'base', 10n ** 9n, 0, pool);
    expect(quote.fillable).toBe(true);
    expect(quote.expectedInput).toBeGreaterThan(0n);
    expect(quoteExactOutput(engine, GRID, 'base', 10n ** 9n, 0).fillable).toBe(false);
  });
});
