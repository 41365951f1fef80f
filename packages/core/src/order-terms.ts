import type { RoutedPool } from './amm/liquidity-walk.js';
import { BUY, SELL, type Side } from './book/types.js';
import { MAX_PRICE_TICKS, type MarketGrid } from './grid.js';
import { type LevelSource, spendBudget } from './quote.js';

/** The token amounts of a signed order that decide where it sits on a book. */
export interface OrderAmounts {
  readonly inputToken: string;
  readonly inputAmount: bigint;
  readonly outputToken: string;
  readonly outputAmount: bigint;
}

/** EVM addresses (lower case) of a book's base and quote tokens. */
export interface BookTokens {
  readonly base: string;
  readonly quote: string;
}

export type OrderKind = 'LIMIT' | 'MARKET';

/**
 * Where an order goes on the book, in grid units. A limit order has a fixed size; a market sell
 * too. A market buy spends a quote budget, so its size is found against the book when it is placed
 * (see `affordableSteps`).
 */
export type OrderTerms =
  | { readonly kind: 'sized'; readonly side: Side; readonly priceTicks: bigint; readonly quantitySteps: number }
  | { readonly kind: 'budget'; readonly side: typeof BUY; readonly priceTicks: bigint; readonly budgetQuote: bigint };

export type TermsViolation =
  | 'TOKENS_NOT_IN_BOOK'
  | 'ZERO_AMOUNT'
  | 'OFF_GRID'
  | 'BELOW_LOT_SIZE'
  | 'BELOW_MIN_NOTIONAL'
  | 'PRICE_OUT_OF_RANGE';

export type TermsResult =
  | { readonly ok: true; readonly terms: OrderTerms }
  | { readonly ok: false; readonly violation: TermsViolation; readonly message: string };

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

function fail(violation: TermsViolation, message: string): TermsResult {
  return { ok: false, violation, message };
}

/**
 * Reads a signed order's amounts against a book: which side it is on, its limit price in ticks and
 * its size in steps. Sizes must lie on the size grid exactly (the signed amount is what settles);
 * the price may fall between ticks and is rounded in the signer's favour: up for a seller's
 * minimum, down for a buyer's maximum. A buyer's rate beyond the grid's range means "any price" (a
 * market buy signed with an output of 1). The order's value, for the minimum notional, is its
 * signed quote amount: what a buyer may pay, what a seller must receive.
 */
export function orderTerms(amounts: OrderAmounts, tokens: BookTokens, grid: MarketGrid, kind: OrderKind): TermsResult {
  const input = amounts.inputToken.toLowerCase();
  const output = amounts.outputToken.toLowerCase();
  let side: Side;
  if (input === tokens.base && output === tokens.quote) side = SELL;
  else if (input === tokens.quote && output === tokens.base) side = BUY;
  else return fail('TOKENS_NOT_IN_BOOK', "inputToken and outputToken must be the book's base and quote tokens");
  if (amounts.inputAmount <= 0n || amounts.outputAmount <= 0n) {
    return fail('ZERO_AMOUNT', 'inputAmount and outputAmount must be greater than zero');
  }

  const baseRaw = side === SELL ? amounts.inputAmount : amounts.outputAmount;
  const quoteRaw = side === SELL ? amounts.outputAmount : amounts.inputAmount;
  const ticks = grid.ticksAtRate(quoteRaw, baseRaw, side === SELL ? 'up' : 'down');

  if (side === BUY && kind === 'MARKET') {
    if (ticks < 1n) return fail('PRICE_OUT_OF_RANGE', 'the signed rate is below one tick of this book');
    const priceTicks = ticks > MAX_PRICE_TICKS ? MAX_PRICE_TICKS : ticks;
    return { ok: true, terms: { kind: 'budget', side: BUY, priceTicks, budgetQuote: amounts.inputAmount } };
  }

  const sizeField = side === SELL ? 'inputAmount' : 'outputAmount';
  if (baseRaw % grid.sizeStepRaw !== 0n) {
    return fail('OFF_GRID', `${sizeField} must be a multiple of the size step (${grid.sizeStepRaw} raw units)`);
  }
  const steps = baseRaw / grid.sizeStepRaw;
  if (steps > MAX_SAFE) return fail('OFF_GRID', `${sizeField} is too large for this book`);
  if (ticks > MAX_PRICE_TICKS) {
    return fail(
      'PRICE_OUT_OF_RANGE',
      `the signed price is above the highest this book takes, ${grid.formatPrice(MAX_PRICE_TICKS)}`,
    );
  }
  if (ticks < 1n) return fail('PRICE_OUT_OF_RANGE', 'the signed price is below one tick of this book');
  const quantitySteps = Number(steps);
  const belowLot = `the size is below the lot size of ${grid.describeLot()}`;
  if (kind === 'LIMIT') {
    const violation = grid.check(quantitySteps, quoteRaw);
    if (violation === 'BELOW_LOT_SIZE') return fail(violation, belowLot);
    if (violation === 'BELOW_MIN_NOTIONAL') {
      return fail(violation, `the order value is below the minimum notional of ${grid.describeMinNotional()}`);
    }
  } else if (quantitySteps < grid.lotSteps) {
    return fail('BELOW_LOT_SIZE', belowLot);
  }
  return { ok: true, terms: { kind: 'sized', side, priceTicks: ticks, quantitySteps } };
}

/**
 * The largest size in whole steps that a quote budget buys from the asks (and the book's pool, for
 * a taker that routes into it) at or below a price limit, best first: the size a market buy is
 * placed with.
 */
export function affordableSteps(
  book: LevelSource,
  grid: MarketGrid,
  budgetQuote: bigint,
  priceLimitTicks: bigint,
  pool?: RoutedPool,
): number {
  return spendBudget(book, grid, budgetQuote, priceLimitTicks, pool).steps;
}
