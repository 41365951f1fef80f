import { BUY, SELL, type Side } from './book/types.js';
import { CoreError } from './errors.js';
import type { MarketGrid } from './grid.js';

/** Anything that can list a side's price levels best first (the matching engine does). */
export interface LevelSource {
  forEachLevel(side: Side, visit: (price: number, quantity: number) => boolean): void;
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

/**
 * Simulates a market order that spends exactly `amount` of `input` against the current book.
 * Selling base walks the bids; spending quote walks the asks and buys whole size steps only.
 */
export function quoteExactInput(
  book: LevelSource,
  grid: MarketGrid,
  input: MarketToken,
  amount: bigint,
  slippageBps: number,
): ExactInputQuote {
  const slippage = assertSlippage(slippageBps);
  let fillable = false;
  let consumed = 0n;
  let output = 0n;
  let snapped = amount;

  if (input === 'base') {
    const steps = grid.floorBaseSteps(amount);
    let left = steps < grid.lotSteps ? 0 : steps;
    snapped = grid.baseAmount(left);
    book.forEachLevel(BUY, (price, quantity) => {
      fillable = true;
      const take = Math.min(quantity, left);
      output += grid.quoteAmount(price, take);
      consumed += grid.baseAmount(take);
      left -= take;
      return left > 0;
    });
  } else {
    let left = amount;
    book.forEachLevel(SELL, (price, quantity) => {
      fillable = true;
      const stepCost = grid.quoteAmount(price, 1);
      const affordable = left / stepCost;
      const take = affordable < BigInt(quantity) ? affordable : BigInt(quantity);
      output += take * grid.sizeStepRaw;
      consumed += take * stepCost;
      left -= take * stepCost;
      // Levels only get dearer, so once a step is unaffordable the walk is over.
      return take === BigInt(quantity) && left > 0n;
    });
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
 * Simulates a market order that receives exactly `amount` of `output`. Buying base walks the asks
 * for whole size steps; receiving quote walks the bids, selling whole size steps until the
 * proceeds reach the requested amount.
 */
export function quoteExactOutput(
  book: LevelSource,
  grid: MarketGrid,
  output: MarketToken,
  amount: bigint,
  slippageBps: number,
): ExactOutputQuote {
  const slippage = assertSlippage(slippageBps);
  if (output === 'base') {
    const steps = grid.floorBaseSteps(amount);
    const wanted = steps < grid.lotSteps ? 0 : steps;
    let left = wanted;
    let cost = 0n;
    book.forEachLevel(SELL, (price, quantity) => {
      const take = Math.min(quantity, left);
      cost += grid.quoteAmount(price, take);
      left -= take;
      return left > 0;
    });
    return {
      snappedOutput: grid.baseAmount(wanted),
      expectedInput: cost,
      suggestedInput: ceilDiv(cost * (BPS + slippage), BPS),
      fillable: wanted > 0 && left === 0,
    };
  }

  let received = 0n;
  let sold = 0n;
  book.forEachLevel(BUY, (price, quantity) => {
    const stepValue = grid.quoteAmount(price, 1);
    const needed = ceilDiv(amount - received, stepValue);
    const take = needed < BigInt(quantity) ? needed : BigInt(quantity);
    received += take * stepValue;
    sold += take;
    return received < amount;
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
