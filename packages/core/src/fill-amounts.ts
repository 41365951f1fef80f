import { SELL, type Side } from './book/types.js';
import type { MarketGrid } from './grid.js';
import { divide } from './rational.js';

/**
 * An order's signed amounts and how much of them has traded so far (settled and pending fills),
 * in raw units. The reactor holds the order to its signed rate over all its fills together: what
 * it received times its input is at least its output times what it paid.
 */
export interface OrderExecution {
  /** Signed input: the most the order may spend in all. */
  readonly inputAmount: bigint;
  /** Signed output: the least it receives for its whole input, and pro rata for part of it. */
  readonly outputAmount: bigint;
  /** Input spent so far. */
  readonly paid: bigint;
  /** Output received so far. */
  readonly received: bigint;
}

/** A trade of the book: `steps` size steps at the maker's price. */
export interface BookFill {
  readonly priceTicks: bigint;
  readonly steps: number;
  /** The resting order's side. */
  readonly makerSide: Side;
}

/** The quote amounts a trade may move without breaking either signed rate: [least, most]. */
export interface QuoteBounds {
  /** The least the seller accepts: its signed rate over all its fills, this one included. */
  readonly least: bigint;
  /** The most the buyer pays: its signed rate over all its fills, and what is left of its input. */
  readonly most: bigint;
}

/** The quote bounds of a trade of `base` raw units between a seller and a buyer (their executions). */
export function quoteBounds(base: bigint, seller: OrderExecution, buyer: OrderExecution): QuoteBounds {
  // seller: (received + q) · input ≥ output · (paid + base)
  const least = divide(seller.outputAmount * (seller.paid + base), seller.inputAmount, 'up') - seller.received;
  // buyer: (received + base) · input ≥ output · (paid + q), and paid + q ≤ input
  const byRate = divide((buyer.received + base) * buyer.inputAmount, buyer.outputAmount, 'down') - buyer.paid;
  const left = buyer.inputAmount - buyer.paid;
  return { least: least > 0n ? least : 0n, most: byRate < left ? byRate : left };
}

/**
 * The quote raw units a book trade moves. Base amounts are always exact; the quote amount is the
 * size times the maker's price, exact on an exact grid. On a fine grid (one size step at one tick
 * is worth a fraction of a quote raw unit) it is rounded towards the maker (up when the maker
 * sells, down when it buys), so the maker gets at least its price, and then moved into the bounds
 * of both signed rates if the rounding would break one: each side always gets at least its signed
 * rate over all its fills, and the taker never does worse than the maker's price rounded.
 *
 * Every trade the matching engine makes completes its maker or its taker, and a trade that
 * completes an order always has such an amount (`fill-amounts.test.ts` holds it against exact
 * fractions); only a trade completing neither could find the bounds empty, and then the grid
 * value is returned for the reactor to refuse.
 */
export function fillQuoteAmount(grid: MarketGrid, fill: BookFill, maker: OrderExecution, taker: OrderExecution): bigint {
  const makerSells = fill.makerSide === SELL;
  const atMakerPrice = grid.quoteAmount(fill.priceTicks, fill.steps, makerSells ? 'up' : 'down');
  const [seller, buyer] = makerSells ? [maker, taker] : [taker, maker];
  const { least, most } = quoteBounds(grid.baseAmount(fill.steps), seller, buyer);
  if (least > most) return atMakerPrice;
  if (atMakerPrice < least) return least;
  return atMakerPrice > most ? most : atMakerPrice;
}
