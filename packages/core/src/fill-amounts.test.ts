import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MatchingEngine } from './book/matching-engine.js';
import { BUY, SELL, type Side } from './book/types.js';
import { fillQuoteAmount, type OrderExecution, quoteBounds } from './fill-amounts.js';
import { type DisplayGridSpec, gridSpecOfDisplay, MAX_PRICE_TICKS, MarketGrid } from './grid.js';
import { affordableSteps, type BookTokens, orderTerms } from './order-terms.js';

const BASE = '0x00000000000000000000000000000000000abcde';
const QUOTE = '0x0000000000000000000000000000000000fedcba';
const TOKENS: BookTokens = { base: BASE, quote: QUOTE };

const display = (spec: DisplayGridSpec) => new MarketGrid(gridSpecOfDisplay(spec));
/** The live mainnet's HBAR/USDC grid: one size step at one tick is 1/100 of a raw USDC. */
const liveHbarUsdc = display({
  baseDecimals: 8,
  quoteDecimals: 6,
  tickStep: '0.0000001',
  sizeStep: '0.1',
  lotSize: '0.1',
  minNotional: '0',
});
/** The live mainnet's WETH/USDC grid: one size step at one tick is 10^-12 raw USDC. */
const liveWethUsdc = display({
  baseDecimals: 18,
  quoteDecimals: 6,
  tickStep: '0.00000000000001',
  sizeStep: '0.0001',
  lotSize: '0.0001',
  minNotional: '0',
});
/** Whole units, a third of a raw unit per step at one tick: rates that never divide evenly. */
const thirds = display({ baseDecimals: 0, quoteDecimals: 0, tickStep: '0.1', sizeStep: '3', lotSize: '3', minNotional: '0' });
/** An exact grid: every fill is a whole number of quote raw units. */
const exact = display({
  baseDecimals: 8,
  quoteDecimals: 6,
  tickStep: '0.00001',
  sizeStep: '0.1',
  lotSize: '0.1',
  minNotional: '0',
});

/** A grid and a price in its ticks around which orders are drawn. */
const MARKETS = [
  { grid: liveHbarUsdc, mid: 1_712_345n },
  { grid: liveWethUsdc, mid: 300_012_345_678_901_234n },
  { grid: thirds, mid: 1_000n },
  { grid: exact, mid: 25_000n },
] as const;

type Kind = 'LIMIT' | 'IOC' | 'MARKET';

const orderDraw = fc.record({
  side: fc.constantFrom<Side>(BUY, SELL),
  kind: fc.constantFrom<Kind>('LIMIT', 'LIMIT', 'LIMIT', 'IOC', 'MARKET'),
  steps: fc.oneof(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 400 })),
  /** Ticks from the mid, and how far the signed quote amount strays from that price. */
  offset: fc.oneof(fc.integer({ min: -2, max: 2 }), fc.integer({ min: -40, max: 40 })),
  stray: fc.oneof(fc.constant(0), fc.integer({ min: -3, max: 3 })),
});

/** Exact comparison of a/b >= c/d for non-negative integers and positive denominators. */
const atLeast = (a: bigint, b: bigint, c: bigint, d: bigint) => a * d >= c * b;

interface Tracked extends OrderExecution {
  readonly side: Side;
  readonly kind: Kind;
}

describe('fillQuoteAmount', () => {
  it('moves the exact value on an exact grid', () => {
    const fresh = (inputAmount: bigint, outputAmount: bigint): OrderExecution => ({
      inputAmount,
      outputAmount,
      paid: 0n,
      received: 0n,
    });
    // 2.5 WHBAR at 0.25 USDC: 625,000 raw USDC, whichever side rests.
    const seller = fresh(250_000_000n, 625_000n);
    const buyer = fresh(625_000n, 250_000_000n);
    expect(fillQuoteAmount(exact, { priceTicks: 25_000n, steps: 25, makerSide: SELL }, seller, buyer)).toBe(625_000n);
    expect(fillQuoteAmount(exact, { priceTicks: 25_000n, steps: 25, makerSide: BUY }, buyer, seller)).toBe(625_000n);
  });

  it("rounds a fine grid's fraction towards the maker while the taker's signed rate allows it", () => {
    // 0.1 HBAR at 0.1712345 is 17,123.45 raw USDC; the taker buys 1 HBAR for up to 171,240.
    const maker: OrderExecution = { inputAmount: 10_000_000n, outputAmount: 17_123n, paid: 0n, received: 0n };
    const taker: OrderExecution = { inputAmount: 171_240n, outputAmount: 100_000_000n, paid: 0n, received: 0n };
    expect(fillQuoteAmount(liveHbarUsdc, { priceTicks: 1_712_345n, steps: 1, makerSide: SELL }, maker, taker)).toBe(17_124n);
    // A resting buyer at the same price pays the fraction down: the taker sells for 17,123.
    const bid: OrderExecution = { inputAmount: 171_234n, outputAmount: 100_000_000n, paid: 0n, received: 0n };
    const ask: OrderExecution = { inputAmount: 10_000_000n, outputAmount: 1n, paid: 0n, received: 0n };
    expect(fillQuoteAmount(liveHbarUsdc, { priceTicks: 1_712_345n, steps: 1, makerSide: BUY }, bid, ask)).toBe(17_123n);
  });

  it("gives the taker the fraction when the maker's rounding would break the taker's signed rate", () => {
    // The taker buys 100 steps for exactly 1,712,345: 17,123.45 a step, no more; the maker sells 7.
    const maker: OrderExecution = { inputAmount: 70_000_000n, outputAmount: 119_864n, paid: 0n, received: 0n };
    const taker: OrderExecution = { inputAmount: 1_712_345n, outputAmount: 1_000_000_000n, paid: 0n, received: 0n };
    expect(fillQuoteAmount(liveHbarUsdc, { priceTicks: 1_712_343n, steps: 7, makerSide: SELL }, maker, taker)).toBe(119_864n);
  });

  it('lets an order that got more than its rate earlier take less later, never less than its rate over all fills', () => {
    // A seller of 30 steps for 513,704 already got 119,865 for 7 steps; 393,839 completes it at its rate.
    const seller: OrderExecution = { inputAmount: 300_000_000n, outputAmount: 513_704n, paid: 70_000_000n, received: 119_865n };
    const buyer: OrderExecution = { inputAmount: 1_712_347n, outputAmount: 1_000_000_000n, paid: 0n, received: 0n };
    expect(quoteBounds(230_000_000n, seller, buyer)).toEqual({ least: 393_839n, most: 393_839n });
    expect(fillQuoteAmount(liveHbarUsdc, { priceTicks: 1_712_347n, steps: 23, makerSide: SELL }, seller, buyer)).toBe(393_839n);
  });

  it("holds both orders to their signed rates over all their fills, on the engine's own trades, exact to the unit", () => {
    let clamped = 0;
    let trades = 0;
    fc.assert(
      fc.property(fc.constantFrom(...MARKETS), fc.array(orderDraw, { minLength: 2, maxLength: 60 }), ({ grid, mid }, draws) => {
        const orders = new Map<number, Tracked>();
        const fills: { makerId: number; takerId: number; price: bigint; quantity: number; makerSide: Side }[] = [];
        const engine = new MatchingEngine((event) => {
          if (event.type === 'fill') {
            fills.push({ ...event, makerSide: event.takerSide === BUY ? SELL : BUY });
          }
        });
        draws.forEach((draw, index) => {
          const id = index + 1;
          const ticks = mid + BigInt(draw.offset);
          const base = grid.baseAmount(draw.steps);
          // The signed quote amount near the price, in whole raw units: its rate rarely falls on a tick.
          const near = grid.quoteAmount(ticks, draw.steps, draw.side === SELL ? 'up' : 'down') + BigInt(draw.stray);
          const quote = near > 0n ? near : 1n;
          const market = draw.kind === 'MARKET';
          const amounts =
            draw.side === SELL
              ? { inputToken: BASE, inputAmount: base, outputToken: QUOTE, outputAmount: market ? 1n : quote }
              : { inputToken: QUOTE, inputAmount: quote, outputToken: BASE, outputAmount: market ? 1n : base };
          const result = orderTerms(amounts, TOKENS, grid, market ? 'MARKET' : 'LIMIT');
          if (!result.ok) return;
          const { terms } = result;
          const quantity =
            terms.kind === 'budget' ? affordableSteps(engine, grid, terms.budgetQuote, terms.priceTicks) : terms.quantitySteps;
          if (quantity < 1) return;
          orders.set(id, { ...amounts, side: draw.side, kind: draw.kind, paid: 0n, received: 0n });
          fills.length = 0;
          engine.place({
            id,
            side: draw.side,
            price: terms.kind === 'budget' || market ? (draw.side === BUY ? MAX_PRICE_TICKS : 1n) : terms.priceTicks,
            quantity,
            timeInForce: draw.kind === 'LIMIT' ? 'GTC' : 'IOC',
            makerOnly: false,
            takerOnce: false,
            time: id,
          });
          for (const fill of fills) {
            const maker = orders.get(fill.makerId) as Tracked;
            const taker = orders.get(fill.takerId) as Tracked;
            const quoteAmount = fillQuoteAmount(
              grid,
              { priceTicks: fill.price, steps: fill.quantity, makerSide: fill.makerSide },
              maker,
              taker,
            );
            const baseAmount = grid.baseAmount(fill.quantity);
            const [seller, buyer] = fill.makerSide === SELL ? [maker, taker] : [taker, maker];
            // Each side at least its signed rate over all its fills, and the buyer within its input.
            expect(
              atLeast(seller.received + quoteAmount, seller.paid + baseAmount, seller.outputAmount, seller.inputAmount),
            ).toBe(true);
            expect(atLeast(buyer.received + baseAmount, buyer.paid + quoteAmount, buyer.outputAmount, buyer.inputAmount)).toBe(
              true,
            );
            expect(buyer.paid + quoteAmount <= buyer.inputAmount).toBe(true);
            // Never worse for the taker than the maker's price rounded towards the maker.
            const towardsMaker = grid.quoteAmount(fill.price, fill.quantity, fill.makerSide === SELL ? 'up' : 'down');
            if (fill.makerSide === SELL) expect(quoteAmount <= towardsMaker).toBe(true);
            else expect(quoteAmount >= towardsMaker).toBe(true);
            if (grid.isExact) expect(quoteAmount).toBe(towardsMaker);
            if (quoteAmount !== towardsMaker) clamped++;
            trades++;
            orders.set(seller === maker ? fill.makerId : fill.takerId, {
              ...seller,
              paid: seller.paid + baseAmount,
              received: seller.received + quoteAmount,
            });
            orders.set(buyer === maker ? fill.makerId : fill.takerId, {
              ...buyer,
              paid: buyer.paid + quoteAmount,
              received: buyer.received + baseAmount,
            });
          }
        });
      }),
      { numRuns: 1_000 },
    );
    // The flows must trade, and must reach the case where the maker's rounding gives way (about
    // 2 % of trades; the bounds leave room for the draws of any run).
    expect(trades).toBeGreaterThan(1_000);
    expect(clamped).toBeGreaterThan(5);
  });
});
