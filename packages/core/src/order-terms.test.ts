import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatDecimal } from './amount.js';
import type { DepthLevel } from './book/book-views.js';
import { BUY, SELL } from './book/types.js';
import { type DisplayGridSpec, gridSpecOfDisplay, MAX_PRICE_TICKS, MarketGrid } from './grid.js';
import {
  affordableSteps,
  type BookTokens,
  type OrderAmounts,
  type OrderTerms,
  orderTerms,
  type TermsResult,
  type TermsViolation,
} from './order-terms.js';
import { HBAR_USDC_GRID, limit, recordingEngine } from './test-support/engine-fixtures.js';

const BASE = '0x00000000000000000000000000000000000abcde';
const QUOTE = '0x0000000000000000000000000000000000fedcba';
const OTHER = '0x0000000000000000000000000000000000c0ffee';
const TOKENS: BookTokens = { base: BASE, quote: QUOTE };
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const displayGrid = (spec: DisplayGridSpec) => new MarketGrid(gridSpecOfDisplay(spec));

/** WHBAR (8 decimals) priced in USDC (6 decimals): one tick times one step is exactly 1 raw USDC. */
const hbarUsdc = new MarketGrid(HBAR_USDC_GRID);

/** An 18-decimal base in a 6-decimal quote, ten quote raw units per tick-step. */
const ethUsdc = displayGrid({
  baseDecimals: 18,
  quoteDecimals: 6,
  tickStep: '0.01',
  sizeStep: '0.001',
  lotSize: '0.01',
  minNotional: '5',
});

/** A quote with more decimals than the base, and coarse ticks and steps. */
const coarse = displayGrid({
  baseDecimals: 6,
  quoteDecimals: 18,
  tickStep: '0.5',
  sizeStep: '2',
  lotSize: '4',
  minNotional: '0.000000000000000003',
});

/** Tokens without decimals and steps that are not powers of ten. */
const wholeUnits = displayGrid({
  baseDecimals: 0,
  quoteDecimals: 0,
  tickStep: '3',
  sizeStep: '7',
  lotSize: '14',
  minNotional: '100',
});

function sell(baseRaw: bigint, quoteRaw: bigint): OrderAmounts {
  return { inputToken: BASE, inputAmount: baseRaw, outputToken: QUOTE, outputAmount: quoteRaw };
}

function buy(quoteRaw: bigint, baseRaw: bigint): OrderAmounts {
  return { inputToken: QUOTE, inputAmount: quoteRaw, outputToken: BASE, outputAmount: baseRaw };
}

function violationOf(result: TermsResult): TermsViolation | undefined {
  return result.ok ? undefined : result.violation;
}

function termsOf(result: TermsResult): OrderTerms {
  if (!result.ok) throw new Error(`expected the order to be accepted, got ${result.violation}: ${result.message}`);
  return result.terms;
}

/** HBAR (8 decimals) in USDC (6) as the live mainnet lists it: one tick of one step is 1/100 of a raw unit. */
const liveHbarUsdc = displayGrid({
  baseDecimals: 8,
  quoteDecimals: 6,
  tickStep: '0.0000001',
  sizeStep: '0.1',
  lotSize: '0.1',
  minNotional: '15',
});

/** WETH (18 decimals) in USDC (6) as the live mainnet lists it: one tick of one step is 10^-12 raw units. */
const liveWethUsdc = displayGrid({
  baseDecimals: 18,
  quoteDecimals: 6,
  tickStep: '0.00000000000001',
  sizeStep: '0.0001',
  lotSize: '0.0001',
  minNotional: '15',
});

/** Whether `ticks` of `steps` are worth at least `quote` raw units, compared exactly. */
const worthAtLeast = (grid: MarketGrid, ticks: bigint, steps: number, quote: bigint) =>
  ticks * BigInt(steps) * grid.stepValue.num >= quote * grid.stepValue.den;

/** Valid grids of random decimals, steps, lot sizes and minimum notionals, exact and fine. */
const randomGrid = fc
  .record({ baseDecimals: fc.integer({ min: 0, max: 18 }), quoteDecimals: fc.integer({ min: 0, max: 18 }) })
  .chain(({ baseDecimals, quoteDecimals }) =>
    fc
      .record({
        sizeUnits: fc.integer({ min: 1, max: 500 }),
        sizeScale: fc.integer({ min: 0, max: Math.min(baseDecimals, 8) }),
        tickUnits: fc.integer({ min: 1, max: 500 }),
        tickScale: fc.integer({ min: 0, max: 16 }),
        lotMultiple: fc.integer({ min: 1, max: 5 }),
        notionalUnits: fc.integer({ min: 0, max: 1_000 }),
        notionalScale: fc.integer({ min: 0, max: quoteDecimals }),
      })
      .map((draw) =>
        displayGrid({
          baseDecimals,
          quoteDecimals,
          tickStep: formatDecimal(BigInt(draw.tickUnits), draw.tickScale),
          sizeStep: formatDecimal(BigInt(draw.sizeUnits), draw.sizeScale),
          lotSize: formatDecimal(BigInt(draw.sizeUnits * draw.lotMultiple), draw.sizeScale),
          minNotional: formatDecimal(BigInt(draw.notionalUnits), draw.notionalScale),
        }),
      ),
  );

const anyGrid = fc.oneof(fc.constantFrom(hbarUsdc, ethUsdc, coarse, wholeUnits, liveHbarUsdc, liveWethUsdc), randomGrid);

/** A grid, an order size in steps and a quote amount reaching up to a price of a billion ticks. */
const sizedCase = anyGrid.chain((grid) =>
  fc.record({
    grid: fc.constant(grid),
    steps: fc.oneof(fc.integer({ min: 1, max: 30 }), fc.integer({ min: 1, max: 1_000_000 })),
    quote: fc.oneof(
      fc.bigInt({ min: 1n, max: grid.minNotionalRaw * 3n + 10n }),
      fc.bigInt({ min: 1n, max: grid.quoteAmount(1_000_000_000n, 1_000_000, 'up') + 1n }),
    ),
  }),
);

describe('orderTerms', () => {
  describe('side', () => {
    it('reads base in, quote out as a sell', () => {
      expect(termsOf(orderTerms(sell(1_000_000_000n, 2_500_000n), TOKENS, hbarUsdc, 'LIMIT'))).toEqual({
        kind: 'sized',
        side: SELL,
        priceTicks: 25_000n,
        quantitySteps: 100,
      });
    });

    it('reads quote in, base out as a buy', () => {
      expect(termsOf(orderTerms(buy(2_500_000n, 1_000_000_000n), TOKENS, hbarUsdc, 'LIMIT'))).toEqual({
        kind: 'sized',
        side: BUY,
        priceTicks: 25_000n,
        quantitySteps: 100,
      });
    });

    it('matches token addresses regardless of letter case', () => {
      const shouting = (address: string) => `0x${address.slice(2).toUpperCase()}`;
      const amounts = { ...sell(1_000_000_000n, 2_500_000n), inputToken: shouting(BASE), outputToken: shouting(QUOTE) };
      expect(termsOf(orderTerms(amounts, TOKENS, hbarUsdc, 'LIMIT'))).toMatchObject({ side: SELL, priceTicks: 25_000n });
      const buying = { ...buy(2_500_000n, 1_000_000_000n), inputToken: shouting(QUOTE), outputToken: BASE.toUpperCase() };
      expect(termsOf(orderTerms(buying, TOKENS, hbarUsdc, 'MARKET'))).toMatchObject({ kind: 'budget', side: BUY });
    });

    it.each([
      ['base for base', BASE, BASE],
      ['quote for quote', QUOTE, QUOTE],
      ['base for another token', BASE, OTHER],
      ['another token for quote', OTHER, QUOTE],
      ['another token for base', OTHER, BASE],
    ])('refuses a swap of %s as TOKENS_NOT_IN_BOOK', (_name, inputToken, outputToken) => {
      const amounts: OrderAmounts = { inputToken, inputAmount: 1_000_000_000n, outputToken, outputAmount: 2_500_000n };
      for (const kind of ['LIMIT', 'MARKET'] as const) {
        expect(violationOf(orderTerms(amounts, TOKENS, hbarUsdc, kind))).toBe('TOKENS_NOT_IN_BOOK');
      }
    });
  });

  describe('amounts', () => {
    it.each([
      ['a sell of nothing', sell(0n, 2_500_000n)],
      ['a sell for nothing', sell(1_000_000_000n, 0n)],
      ['a buy paying nothing', buy(0n, 1_000_000_000n)],
      ['a buy of nothing', buy(2_500_000n, 0n)],
      ['a negative amount', sell(-1_000_000_000n, 2_500_000n)],
    ])('refuses %s as ZERO_AMOUNT, limit or market', (_name, amounts) => {
      for (const kind of ['LIMIT', 'MARKET'] as const) {
        expect(violationOf(orderTerms(amounts, TOKENS, hbarUsdc, kind))).toBe('ZERO_AMOUNT');
      }
    });

    it('refuses a sell whose input is not a whole number of size steps as OFF_GRID, naming the field', () => {
      for (const kind of ['LIMIT', 'MARKET'] as const) {
        const result = orderTerms(sell(1_000_000_001n, 2_500_000n), TOKENS, hbarUsdc, kind);
        expect(violationOf(result)).toBe('OFF_GRID');
        expect(result.ok ? '' : result.message).toContain('inputAmount');
        expect(result.ok ? '' : result.message).toContain('10000000');
      }
    });

    it('refuses a limit buy whose output is not a whole number of size steps as OFF_GRID, naming the field', () => {
      const result = orderTerms(buy(2_500_000n, 1_005_000_000n), TOKENS, hbarUsdc, 'LIMIT');
      expect(violationOf(result)).toBe('OFF_GRID');
      expect(result.ok ? '' : result.message).toContain('outputAmount');
    });

    it('refuses a size of more steps than a safe integer as OFF_GRID', () => {
      const tooMany = (MAX_SAFE + 1n) * hbarUsdc.sizeStepRaw;
      expect(violationOf(orderTerms(sell(tooMany, tooMany), TOKENS, hbarUsdc, 'LIMIT'))).toBe('OFF_GRID');
      expect(violationOf(orderTerms(sell(tooMany, tooMany), TOKENS, hbarUsdc, 'MARKET'))).toBe('OFF_GRID');
      expect(violationOf(orderTerms(buy(tooMany, tooMany), TOKENS, hbarUsdc, 'LIMIT'))).toBe('OFF_GRID');
    });

    it('refuses a size below the lot size as BELOW_LOT_SIZE, limit or market', () => {
      // 0.9 WHBAR is 9 steps; the lot is 10 steps. The price (100 USDC) is far above the minimum notional.
      expect(violationOf(orderTerms(sell(90_000_000n, 100_000_000n), TOKENS, hbarUsdc, 'LIMIT'))).toBe('BELOW_LOT_SIZE');
      expect(violationOf(orderTerms(sell(90_000_000n, 100_000_000n), TOKENS, hbarUsdc, 'MARKET'))).toBe('BELOW_LOT_SIZE');
      expect(violationOf(orderTerms(buy(100_000_000n, 90_000_000n), TOKENS, hbarUsdc, 'LIMIT'))).toBe('BELOW_LOT_SIZE');
      expect(termsOf(orderTerms(sell(100_000_000n, 100_000_000n), TOKENS, hbarUsdc, 'MARKET'))).toMatchObject({
        quantitySteps: 10,
      });
    });

    it('refuses a limit order worth less than the minimum notional as BELOW_MIN_NOTIONAL, and accepts exactly the minimum', () => {
      // 1 WHBAR (10 steps) for 0.99999 USDC, then for exactly 1 USDC (the minimum notional).
      expect(violationOf(orderTerms(sell(100_000_000n, 999_990n), TOKENS, hbarUsdc, 'LIMIT'))).toBe('BELOW_MIN_NOTIONAL');
      expect(violationOf(orderTerms(buy(999_999n, 100_000_000n), TOKENS, hbarUsdc, 'LIMIT'))).toBe('BELOW_MIN_NOTIONAL');
      expect(termsOf(orderTerms(sell(100_000_000n, 1_000_000n), TOKENS, hbarUsdc, 'LIMIT'))).toMatchObject({
        priceTicks: 100_000n,
      });
      expect(termsOf(orderTerms(buy(1_000_000n, 100_000_000n), TOKENS, hbarUsdc, 'LIMIT'))).toMatchObject({
        priceTicks: 100_000n,
      });
    });

    it('judges the minimum notional at the signed quote amount, as a client reading /books computes it', () => {
      // On the whole-unit grid 2 steps (14 raw) cost 42 raw per tick and the minimum notional is 100.
      // A buyer paying 125 rests at 2 ticks (84) and a seller asking 99 at 3 (126): the signed amounts decide.
      expect(termsOf(orderTerms(buy(125n, 14n), TOKENS, wholeUnits, 'LIMIT'))).toMatchObject({ priceTicks: 2n });
      expect(termsOf(orderTerms(buy(100n, 14n), TOKENS, wholeUnits, 'LIMIT'))).toMatchObject({ priceTicks: 2n });
      expect(violationOf(orderTerms(buy(99n, 14n), TOKENS, wholeUnits, 'LIMIT'))).toBe('BELOW_MIN_NOTIONAL');
      expect(violationOf(orderTerms(sell(14n, 99n), TOKENS, wholeUnits, 'LIMIT'))).toBe('BELOW_MIN_NOTIONAL');
      expect(termsOf(orderTerms(sell(14n, 100n), TOKENS, wholeUnits, 'LIMIT'))).toMatchObject({ priceTicks: 3n });
    });

    it('takes exactly one lot at exactly the minimum notional on the live HBAR/USDC grid', () => {
      // 0.1 HBAR for 15 USDC: 150 USDC a HBAR, 1,500,000,000 ticks of 0.0000001.
      expect(termsOf(orderTerms(sell(10_000_000n, 15_000_000n), TOKENS, liveHbarUsdc, 'LIMIT'))).toEqual({
        kind: 'sized',
        side: SELL,
        priceTicks: 1_500_000_000n,
        quantitySteps: 1,
      });
      expect(termsOf(orderTerms(buy(15_000_000n, 10_000_000n), TOKENS, liveHbarUsdc, 'LIMIT'))).toMatchObject({
        priceTicks: 1_500_000_000n,
      });
      expect(violationOf(orderTerms(buy(14_999_999n, 10_000_000n), TOKENS, liveHbarUsdc, 'LIMIT'))).toBe('BELOW_MIN_NOTIONAL');
    });

    it('prices a WETH order at 3,000 USDC on the live WETH/USDC grid, far past 2^53 ticks', () => {
      // 1 WETH for 3,000.123456 USDC: 300,012,345,600,000,000 ticks of 1e-14.
      const terms = termsOf(orderTerms(sell(10n ** 18n, 3_000_123_456n), TOKENS, liveWethUsdc, 'LIMIT'));
      expect(terms).toEqual({ kind: 'sized', side: SELL, priceTicks: 300_012_345_600_000_000n, quantitySteps: 10_000 });
      expect(liveWethUsdc.formatPrice(terms.priceTicks)).toBe('3000.123456');
    });

    it('skips the minimum notional for market orders', () => {
      expect(termsOf(orderTerms(sell(100_000_000n, 1n), TOKENS, hbarUsdc, 'MARKET'))).toEqual({
        kind: 'sized',
        side: SELL,
        priceTicks: 1n,
        quantitySteps: 10,
      });
      expect(termsOf(orderTerms(buy(500_000n, 100_000_000n), TOKENS, hbarUsdc, 'MARKET'))).toEqual({
        kind: 'budget',
        side: BUY,
        priceTicks: 50_000n,
        budgetQuote: 500_000n,
      });
    });
  });

  describe('price', () => {
    it("rounds a seller's limit price up onto the grid and a buyer's down", () => {
      // 100 steps for 2.500001 USDC is 25000.01 ticks.
      expect(termsOf(orderTerms(sell(1_000_000_000n, 2_500_001n), TOKENS, hbarUsdc, 'LIMIT'))).toMatchObject({
        priceTicks: 25_001n,
      });
      expect(termsOf(orderTerms(buy(2_500_099n, 1_000_000_000n), TOKENS, hbarUsdc, 'LIMIT'))).toMatchObject({
        priceTicks: 25_000n,
      });
    });

    it('refuses a limit buy priced below one tick as PRICE_OUT_OF_RANGE', () => {
      // 10 steps cost 10 raw USDC at one tick; 9 raw buys nothing on this grid.
      expect(violationOf(orderTerms(buy(9n, 100_000_000n), TOKENS, hbarUsdc, 'LIMIT'))).toBe('PRICE_OUT_OF_RANGE');
      expect(violationOf(orderTerms(buy(9n, 100_000_000n), TOKENS, hbarUsdc, 'MARKET'))).toBe('PRICE_OUT_OF_RANGE');
      expect(termsOf(orderTerms(buy(10n, 100_000_000n), TOKENS, hbarUsdc, 'MARKET'))).toMatchObject({ priceTicks: 1n });
    });

    it('refuses a limit price above the largest tick as PRICE_OUT_OF_RANGE and accepts the largest', () => {
      const steps = 10n;
      const base = steps * hbarUsdc.sizeStepRaw;
      expect(termsOf(orderTerms(sell(base, steps * MAX_PRICE_TICKS), TOKENS, hbarUsdc, 'LIMIT'))).toMatchObject({
        priceTicks: MAX_PRICE_TICKS,
      });
      const above = steps * MAX_PRICE_TICKS + 1n;
      expect(violationOf(orderTerms(sell(base, above), TOKENS, hbarUsdc, 'LIMIT'))).toBe('PRICE_OUT_OF_RANGE');
      expect(violationOf(orderTerms(sell(base, above), TOKENS, hbarUsdc, 'MARKET'))).toBe('PRICE_OUT_OF_RANGE');
      expect(violationOf(orderTerms(buy(steps * (MAX_PRICE_TICKS + 1n), base), TOKENS, hbarUsdc, 'LIMIT'))).toBe(
        'PRICE_OUT_OF_RANGE',
      );
    });

    it('reads a market buy as a quote budget whose price limit may fall between size steps', () => {
      // 2.5 USDC for at least 0.00000123 WHBAR: the output need not be on the size grid.
      expect(termsOf(orderTerms(buy(2_500_000n, 123n), TOKENS, hbarUsdc, 'MARKET'))).toEqual({
        kind: 'budget',
        side: BUY,
        priceTicks: 203_252_032_520n,
        budgetQuote: 2_500_000n,
      });
    });

    it('clamps the price limit of a market buy signed with an output of 1 to the largest tick', () => {
      const terms = termsOf(orderTerms(buy(10n ** 30n, 1n), TOKENS, hbarUsdc, 'MARKET'));
      expect(terms).toEqual({ kind: 'budget', side: BUY, priceTicks: MAX_PRICE_TICKS, budgetQuote: 10n ** 30n });
    });
  });

  describe('properties', () => {
    it("prices an accepted limit sell at the smallest tick whose quote amount still meets the seller's signed minimum", () => {
      fc.assert(
        fc.property(sizedCase, ({ grid, steps, quote }) => {
          const result = orderTerms(sell(grid.baseAmount(steps), quote), TOKENS, grid, 'LIMIT');
          if (!worthAtLeast(grid, MAX_PRICE_TICKS, steps, quote)) {
            expect(violationOf(result)).toBe('PRICE_OUT_OF_RANGE');
            return;
          }
          if (steps < grid.lotSteps) {
            expect(violationOf(result)).toBe('BELOW_LOT_SIZE');
            return;
          }
          if (quote < grid.minNotionalRaw) {
            expect(violationOf(result)).toBe('BELOW_MIN_NOTIONAL');
            return;
          }
          const terms = termsOf(result);
          expect(terms).toMatchObject({ kind: 'sized', side: SELL, quantitySteps: steps });
          expect(worthAtLeast(grid, terms.priceTicks, steps, quote)).toBe(true);
          if (terms.priceTicks > 1n) expect(worthAtLeast(grid, terms.priceTicks - 1n, steps, quote)).toBe(false);
        }),
        { numRuns: 500 },
      );
    });

    it("prices an accepted limit buy at the largest tick whose quote amount stays within the buyer's signed input", () => {
      fc.assert(
        fc.property(sizedCase, ({ grid, steps, quote }) => {
          const result = orderTerms(buy(quote, grid.baseAmount(steps)), TOKENS, grid, 'LIMIT');
          const { num, den } = grid.stepValue;
          const affords = (ticks: bigint) => ticks * BigInt(steps) * num <= quote * den;
          if (!affords(1n) || affords(MAX_PRICE_TICKS + 1n)) {
            expect(violationOf(result)).toBe('PRICE_OUT_OF_RANGE');
            return;
          }
          if (steps < grid.lotSteps) {
            expect(violationOf(result)).toBe('BELOW_LOT_SIZE');
            return;
          }
          if (quote < grid.minNotionalRaw) {
            expect(violationOf(result)).toBe('BELOW_MIN_NOTIONAL');
            return;
          }
          const terms = termsOf(result);
          expect(terms).toMatchObject({ kind: 'sized', side: BUY, quantitySteps: steps });
          expect(affords(terms.priceTicks)).toBe(true);
          expect(affords(terms.priceTicks + 1n)).toBe(false);
        }),
        { numRuns: 500 },
      );
    });

    it('sizes a market sell like a limit sell but without the minimum notional', () => {
      fc.assert(
        fc.property(sizedCase, ({ grid, steps, quote }) => {
          const result = orderTerms(sell(grid.baseAmount(steps), quote), TOKENS, grid, 'MARKET');
          if (!worthAtLeast(grid, MAX_PRICE_TICKS, steps, quote)) {
            expect(violationOf(result)).toBe('PRICE_OUT_OF_RANGE');
            return;
          }
          if (steps < grid.lotSteps) {
            expect(violationOf(result)).toBe('BELOW_LOT_SIZE');
            return;
          }
          const terms = termsOf(result);
          expect(terms).toMatchObject({ kind: 'sized', side: SELL, quantitySteps: steps });
          expect(worthAtLeast(grid, terms.priceTicks, steps, quote)).toBe(true);
          if (terms.priceTicks > 1n) expect(worthAtLeast(grid, terms.priceTicks - 1n, steps, quote)).toBe(false);
        }),
        { numRuns: 300 },
      );
    });

    it('gives a market buy its whole input as budget and the largest tick within the signed rate, clamped to the largest tick', () => {
      const marketBuy = anyGrid.chain((grid) =>
        fc.record({
          grid: fc.constant(grid),
          input: fc.oneof(fc.bigInt({ min: 1n, max: 1_000n }), fc.bigInt({ min: 1n, max: 10n ** 30n })),
          output: fc.oneof(fc.constant(1n), fc.bigInt({ min: 1n, max: 10n ** 24n })),
        }),
      );
      fc.assert(
        fc.property(marketBuy, ({ grid, input, output }) => {
          const result = orderTerms(buy(input, output), TOKENS, grid, 'MARKET');
          // Price p ticks is within the rate when p * stepValue per size step <= input per output.
          const { num, den } = grid.stepValue;
          const within = (ticks: bigint) => ticks * num * output <= input * grid.sizeStepRaw * den;
          if (!within(1n)) {
            expect(violationOf(result)).toBe('PRICE_OUT_OF_RANGE');
            return;
          }
          const terms = termsOf(result);
          expect(terms).toEqual({ kind: 'budget', side: BUY, priceTicks: terms.priceTicks, budgetQuote: input });
          expect(terms.priceTicks <= MAX_PRICE_TICKS).toBe(true);
          expect(within(terms.priceTicks)).toBe(true);
          if (terms.priceTicks < MAX_PRICE_TICKS) expect(within(terms.priceTicks + 1n)).toBe(false);
        }),
        { numRuns: 500 },
      );
    });
  });
});

/**
 * Quote cost of the first `steps` steps bought from `asks` (best first) at or below `limitTicks`,
 * each step at its price rounded up; undefined when too few.
 */
function costOfBestSteps(grid: MarketGrid, asks: readonly DepthLevel[], limitTicks: bigint, steps: number): bigint | undefined {
  let left = steps;
  let cost = 0n;
  for (const [price, quantity] of asks) {
    if (left === 0 || price > limitTicks) break;
    const take = Math.min(quantity, left);
    cost += grid.quoteAmount(price, 1, 'up') * BigInt(take);
    left -= take;
  }
  return left === 0 ? cost : undefined;
}

describe('affordableSteps', () => {
  function bookWith(asks: readonly (readonly [price: number, quantity: number])[]) {
    const { engine } = recordingEngine();
    let id = 1;
    for (const [price, quantity] of asks) engine.place(limit(id++, SELL, price, quantity));
    return engine;
  }

  it('buys the best asks first and stops at the first step the budget cannot pay', () => {
    const book = bookWith([
      [101, 5],
      [100, 3],
      [103, 4],
    ]);
    // 3 steps at 100 cost 300 raw, 5 at 101 cost 505: 805 buys all 8, 804 only 7.
    expect(affordableSteps(book, hbarUsdc, 805n, MAX_PRICE_TICKS)).toBe(8);
    expect(affordableSteps(book, hbarUsdc, 804n, MAX_PRICE_TICKS)).toBe(7);
    expect(affordableSteps(book, hbarUsdc, 99n, MAX_PRICE_TICKS)).toBe(0);
    expect(affordableSteps(book, hbarUsdc, 10n ** 12n, MAX_PRICE_TICKS)).toBe(12);
  });

  it('walks no level above the price limit', () => {
    const book = bookWith([
      [100, 3],
      [101, 5],
      [103, 4],
    ]);
    expect(affordableSteps(book, hbarUsdc, 10n ** 12n, 101n)).toBe(8);
    expect(affordableSteps(book, hbarUsdc, 10n ** 12n, 102n)).toBe(8);
    expect(affordableSteps(book, hbarUsdc, 10n ** 12n, 100n)).toBe(3);
    expect(affordableSteps(book, hbarUsdc, 10n ** 12n, 99n)).toBe(0);
  });

  it('finds nothing to buy on a book without asks, whatever its bids', () => {
    const { engine } = recordingEngine();
    engine.place(limit(1, BUY, 100, 10));
    expect(affordableSteps(engine, hbarUsdc, 10n ** 12n, MAX_PRICE_TICKS)).toBe(0);
  });

  it('buys the most steps the budget pays for, best price first, within the price limit', () => {
    const books = fc.record({
      grid: fc.constantFrom(hbarUsdc, ethUsdc, wholeUnits, liveHbarUsdc),
      asks: fc.array(fc.tuple(fc.integer({ min: 51, max: 100 }), fc.integer({ min: 1, max: 20 })), { maxLength: 30 }),
      bids: fc.array(fc.tuple(fc.integer({ min: 1, max: 50 }), fc.integer({ min: 1, max: 20 })), { maxLength: 5 }),
      limitTicks: fc.oneof(fc.bigInt({ min: 0n, max: 110n }), fc.constant(MAX_PRICE_TICKS)),
      budget: fc.oneof(fc.bigInt({ min: 0n, max: 2_000n }), fc.bigInt({ min: 0n, max: 2_000_000n })),
    });
    fc.assert(
      fc.property(books, ({ grid, asks, bids, limitTicks, budget }) => {
        const { engine } = recordingEngine();
        let id = 1;
        for (const [price, quantity] of asks) engine.place(limit(id++, SELL, price, quantity));
        for (const [price, quantity] of bids) engine.place(limit(id++, BUY, price, quantity));
        const levels = engine.depth().asks;
        const available = levels.filter(([price]) => price <= limitTicks).reduce((sum, [, quantity]) => sum + quantity, 0);

        const steps = affordableSteps(engine, grid, budget, limitTicks);

        expect(steps).toBeGreaterThanOrEqual(0);
        expect(steps).toBeLessThanOrEqual(available);
        const cost = costOfBestSteps(grid, levels, limitTicks, steps);
        expect(cost).toBeDefined();
        expect(cost ?? budget + 1n).toBeLessThanOrEqual(budget);
        if (steps < available) {
          const oneMore = costOfBestSteps(grid, levels, limitTicks, steps + 1);
          expect(oneMore ?? 0n).toBeGreaterThan(budget);
        }
      }),
      { numRuns: 500 },
    );
  });
});
