import { amountIn, amountOut } from './amm/constant-product.js';
import { type RoutedPool, walkLiquidity } from './amm/liquidity-walk.js';
import { swapOf } from './amm/pool-leg.js';
import { BUY, SELL, type Side } from './book/types.js';
import { CoreError } from './errors.js';
import { MAX_PRICE_TICKS, type MarketGrid } from './grid.js';

/** Anything that can list a side's price levels best first (the matching engine does). */
export interface LevelSource {
  forEachLevel(side: Side, visit: (price: bigint, quantity: number) => boolean): void;
}

/**
 * What one size step of a level costs a buyer or brings a seller, rounded per step against the
 * taker: on a fine grid each fill's quote amount is rounded, never by more than this per step
 * (`fill-amounts.ts`), so walking a book at these prices never promises more than trading it gives.
 */
function stepPrice(grid: MarketGrid, ticks: bigint, takerSide: Side): bigint {
  return grid.quoteAmount(ticks, 1, takerSide === BUY ? 'up' : 'down');
}

/** Which token of the market an amount is in. */
export type MarketToken = 'base' | 'quote';

export interface ExactInputQuote {
  /** The input floored onto the size grid (zero below the lot size); base inputs only, quote inputs pass through. */
  readonly snappedInput: bigint;
  /** The part of the snapped input the book absorbs. */
  readonly consumedInput: bigint;
  readonly expectedOutput: bigint;
  /** expectedOutput lowered by the slippage buffer: a minimum output to sign. */
  readonly suggestedOutput: bigint;
  /** False when the book holds no liquidity at all on the side this order would take. */
  readonly fillable: boolean;
}

export interface ExactOutputQuote {
  /** What the order actually receives: base outputs floored onto the size grid, quote outputs
   * rounded up to whole size steps of the base sold. */
  readonly snappedOutput: bigint;
  readonly expectedInput: bigint;
  /** expectedInput raised by the slippage buffer (and, for base inputs, onto the size grid). */
  readonly suggestedInput: bigint;
  /** False when the book is too shallow to deliver the requested output. */
  readonly fillable: boolean;
}

const BPS = 10_000n;

function assertSlippage(slippageBps: number): bigint {
  if (!Number.isInteger(slippageBps) || slippageBps < 0 || slippageBps >= 10_000) {
    throw new CoreError('OUT_OF_RANGE', 'slippage must be an integer number of basis points below 10000');
  }
  return BigInt(slippageBps);
}

function ceilDiv(numerator: bigint, denominator: bigint): bigint {
  return (numerator + denominator - 1n) / denominator;
}

/** A market buy's size against the liquidity it meets for a quote budget. */
export interface BudgetFill {
  /** Whole size steps the budget buys. */
  readonly steps: number;
  /** Quote raw units those steps cost. */
  readonly spent: bigint;
  /** Whether any liquidity was offered at all. */
  readonly offered: boolean;
}

/**
 * What a quote budget buys walking the book's asks (and the pool, if the taker routes into one)
 * best first up to a price limit: whole size steps only, every pool swap priced by the pair.
 */
export function spendBudget(
  book: LevelSource,
  grid: MarketGrid,
  budgetQuote: bigint,
  limitTicks: bigint,
  pool?: RoutedPool,
): BudgetFill {
  let left = budgetQuote;
  let steps = 0;
  let offered = false;
  walkLiquidity(book, pool, BUY, limitTicks, (segment) => {
    offered = true;
    if (segment.source === 'book') {
      const perStep = stepPrice(grid, segment.price, BUY);
      const affordable = left / perStep;
      const take = affordable < BigInt(segment.quantity) ? Number(affordable) : segment.quantity;
      steps += take;
      left -= perStep * BigInt(take);
      return take;
    }
    const affordable = Number(amountOut(left, segment.reserves.quote, segment.reserves.base) / grid.sizeStepRaw);
    const swap = swapOf(segment.reserves, grid, BUY, Math.min(segment.leg.steps, affordable));
    if (swap === undefined) return 0;
    steps += swap.steps;
    left -= swap.quote;
    return swap.steps;
  });
  return { steps, spent: budgetQuote - left, offered };
}

/**
 * Trades up to `steps` size steps at market against the bids (selling) or the asks (buying), and
 * the pool: how many traded and the quote they brought in or cost. A market sell's limit is one
 * tick (the least a signed order can ask); a market buy's is any price.
 */
function tradeSteps(book: LevelSource, grid: MarketGrid, side: Side, steps: number, pool: RoutedPool | undefined) {
  let left = steps;
  let quote = 0n;
  let offered = false;
  walkLiquidity(book, pool, side, side === SELL ? 1n : MAX_PRICE_TICKS, (segment) => {
    offered = true;
    const take = Math.min(left, segment.source === 'book' ? segment.quantity : segment.leg.steps);
    if (segment.source === 'book') {
      quote += stepPrice(grid, segment.price, side) * BigInt(take);
    } else {
      const swap = swapOf(segment.reserves, grid, side, take);
      if (swap === undefined) return 0;
      quote += swap.quote;
    }
    left -= take;
    return take;
  });
  return { traded: steps - left, quote, offered };
}

/**
 * Simulates a market order that spends exactly `amount` of `input` against the current book (and
 * the book's pool when the taker routes into it). Selling base walks the bids; spending quote walks
 * the asks and buys whole size steps only.
 */
export function quoteExactInput(
  book: LevelSource,
  grid: MarketGrid,
  input: MarketToken,
  amount: bigint,
  slippageBps: number,
  pool?: RoutedPool,
): ExactInputQuote {
  const slippage = assertSlippage(slippageBps);
  let fillable: boolean;
  let consumed: bigint;
  let output: bigint;
  let snapped = amount;

  if (input === 'base') {
    const steps = grid.floorBaseSteps(amount);
    const wanted = steps < grid.lotSteps ? 0 : steps;
    snapped = grid.baseAmount(wanted);
    const sale = tradeSteps(book, grid, SELL, wanted, pool);
    fillable = sale.offered;
    consumed = grid.baseAmount(sale.traded);
    output = sale.quote;
  } else {
    const purchase = spendBudget(book, grid, amount, MAX_PRICE_TICKS, pool);
    fillable = purchase.offered;
    consumed = purchase.spent;
    output = grid.baseAmount(purchase.steps);
  }
  return {
    snappedInput: snapped,
    consumedInput: consumed,
    expectedOutput: output,
    suggestedOutput: (output * (BPS - slippage)) / BPS,
    fillable,
  };
}

/**
 * Simulates a market order that receives exactly `amount` of `output` (the book's pool included
 * when the taker routes into it). Buying base buys whole size steps; receiving quote sells whole
 * size steps until the proceeds reach the requested amount.
 */
export function quoteExactOutput(
  book: LevelSource,
  grid: MarketGrid,
  output: MarketToken,
  amount: bigint,
  slippageBps: number,
  pool?: RoutedPool,
): ExactOutputQuote {
  const slippage = assertSlippage(slippageBps);
  if (output === 'base') {
    const steps = grid.floorBaseSteps(amount);
    const wanted = steps < grid.lotSteps ? 0 : steps;
    const purchase = tradeSteps(book, grid, BUY, wanted, pool);
    return {
      snappedOutput: grid.baseAmount(wanted),
      expectedInput: purchase.quote,
      suggestedInput: ceilDiv(purchase.quote * (BPS + slippage), BPS),
      fillable: wanted > 0 && purchase.traded === wanted,
    };
  }

  let received = 0n;
  let sold = 0n;
  walkLiquidity(book, pool, SELL, 1n, (segment) => {
    if (received >= amount) return 0;
    if (segment.source === 'book') {
      const stepValue = stepPrice(grid, segment.price, SELL);
      // A step worth less than one raw unit at this price brings in nothing for sure: take it all.
      const needed = stepValue === 0n ? BigInt(segment.quantity) : ceilDiv(amount - received, stepValue);
      const take = needed < BigInt(segment.quantity) ? Number(needed) : segment.quantity;
      received += BigInt(take) * stepValue;
      sold += BigInt(take);
      return take;
    }
    // The least base that brings in what is missing, in whole steps; all the leg if it cannot.
    const baseNeeded = amountIn(amount - received, segment.reserves.base, segment.reserves.quote);
    const steps = baseNeeded === undefined ? segment.leg.steps : Number(ceilDiv(baseNeeded, grid.sizeStepRaw));
    const swap = swapOf(segment.reserves, grid, SELL, Math.min(steps, segment.leg.steps));
    if (swap === undefined) return 0;
    received += swap.quote;
    sold += BigInt(swap.steps);
    return swap.steps;
  });
  const expectedInput = sold * grid.sizeStepRaw;
  const buffered = ceilDiv(expectedInput * (BPS + slippage), BPS);
  return {
    snappedOutput: received,
    expectedInput,
    suggestedInput: ceilDiv(buffered, grid.sizeStepRaw) * grid.sizeStepRaw,
    fillable: amount > 0n && received >= amount,
  };
}
