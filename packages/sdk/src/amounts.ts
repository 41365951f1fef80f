import {
  type DisplayGridSpec,
  decimalToUnits,
  formatDecimal,
  fromDisplayAmount,
  type GridSpec,
  gridSpecOfDisplay,
  MarketGrid,
  parseDecimal,
  parseRawAmount,
  type Rounding,
  toDisplayAmount,
} from '@dex/core';
import { InvalidParameterError } from './errors.js';
import type { OrderRequest, OrderSide } from './order-types.js';
import type { OrderbookItem } from './types.js';
import { asParameter, type RawAmount, rawAmountParameter } from './utils/parameters.js';

export type { Rounding } from '@dex/core';

/**
 * A human-readable amount in raw token units: `toRaw('1.5', 8)` is `150000000n`. More fractional
 * digits than the token has is an error, never a silent rounding.
 */
export function toRaw(display: string, decimals: number): bigint {
  return asParameter('display', () => fromDisplayAmount(display, decimals, 'display'));
}

/** Raw token units as a human-readable amount: `toDisplay('150000000', 8)` is `"1.5"`. */
export function toDisplay(raw: RawAmount, decimals: number): string {
  const amount = rawOf(raw, 'raw');
  return asParameter('raw', () => toDisplayAmount(amount, decimals));
}

/** The fields of an order book item that define its grid. */
export type BookGrid = Pick<
  OrderbookItem,
  'tickStep' | 'sizeStep' | 'lotSize' | 'minNotional' | 'baseTokenDecimals' | 'quoteTokenDecimals'
>;

/**
 * Whether a book item gives its lot size and minimum notional as display decimals (this service
 * before it followed the live one) rather than raw integers (the live service, and this one now).
 * The lot is a whole number of size steps: a decimal point, or an integer that is no multiple of
 * the size step in raw units, can only be a display amount.
 */
function limitsAreDisplay(spec: DisplayGridSpec): boolean {
  if (spec.lotSize.includes('.')) return true;
  const step = decimalToUnits(parseDecimal(spec.sizeStep, 'sizeStep'), spec.baseDecimals);
  return step === undefined || step === 0n || BigInt(spec.lotSize) % step !== 0n;
}

/** A book item's grid with the lot size and minimum notional in raw units, whichever form the server sent them in. */
function gridSpecOf(spec: DisplayGridSpec): GridSpec {
  if (limitsAreDisplay(spec)) return gridSpecOfDisplay(spec);
  return {
    ...spec,
    lotSize: parseRawAmount(spec.lotSize, 'lotSize'),
    minNotional: parseRawAmount(spec.minNotional, 'minNotional'),
  };
}

/**
 * A book item's lot size and minimum notional as raw integer strings, whichever form the server
 * sent them in; as sent when the book does not say its token decimals.
 */
export function rawBookLimits(book: BookGrid): Pick<BookGrid, 'lotSize' | 'minNotional'> {
  const { baseTokenDecimals, quoteTokenDecimals, lotSize, minNotional } = book;
  if (baseTokenDecimals === null || quoteTokenDecimals === null) return { lotSize, minNotional };
  const spec = asParameter('book', () =>
    gridSpecOf({
      baseDecimals: baseTokenDecimals,
      quoteDecimals: quoteTokenDecimals,
      tickStep: book.tickStep,
      sizeStep: book.sizeStep,
      lotSize,
      minNotional,
    }),
  );
  return { lotSize: spec.lotSize.toString(), minNotional: spec.minNotional.toString() };
}

/**
 * The book's grid as the exchange's domain computes it: prices in ticks, sizes in size steps, the
 * lot size and minimum notional in raw units (core's `MarketGrid`). It reads `lotSize` and
 * `minNotional` as the live service sends them (raw integers in the base and quote token) and as
 * earlier versions of this service did (display decimals). A book without token decimals, or with
 * a grid finer than its tokens, is an InvalidParameterError.
 */
export function bookGrid(book: BookGrid): MarketGrid {
  const { baseTokenDecimals, quoteTokenDecimals } = book;
  if (baseTokenDecimals === null || quoteTokenDecimals === null) {
    throw new InvalidParameterError('book', 'The book does not say its token decimals, so its grid is unknown');
  }
  return asParameter(
    'book',
    () =>
      new MarketGrid(
        gridSpecOf({
          baseDecimals: baseTokenDecimals,
          quoteDecimals: quoteTokenDecimals,
          tickStep: book.tickStep,
          sizeStep: book.sizeStep,
          lotSize: book.lotSize,
          minNotional: book.minNotional,
        }),
      ),
  );
}

/**
 * A raw base amount floored to a whole number of the book's size steps: the most of it an order can
 * use. The result can still be below the book's lot size or minimum notional.
 *
 * @example
 * snapSizeDown(whbarUsdc, 305_000_000n); // 300000000n with a size step of 0.1 WHBAR (8 decimals)
 */
export function snapSizeDown(book: BookGrid, baseRaw: RawAmount): bigint {
  const amount = rawOf(baseRaw, 'baseRaw');
  const step = bookGrid(book).sizeStepRaw;
  return amount - (amount % step);
}

function rawOf(value: RawAmount, parameter: string): bigint {
  return asParameter(parameter, () => parseRawAmount(typeof value === 'bigint' ? value.toString() : value, parameter));
}

/** `units / 10^scale` rounded to a whole multiple of `step` (in the same scale). */
function roundToStep(units: bigint, step: bigint, rounding: Rounding): bigint {
  const steps = units / step;
  return (rounding === 'up' && steps * step !== units ? steps + 1n : steps) * step;
}

/** A display decimal at `scale` digits, rounded onto a multiple of `step` units of that scale. */
function snapDecimal(text: string, parameter: string, scale: number, step: bigint, rounding: Rounding): string {
  const value = asParameter(parameter, () => parseDecimal(text, parameter));
  // Bring the value to the grid's scale first, rounding the digits beyond it the same way.
  const shift = value.scale - scale;
  const scaled =
    shift <= 0
      ? value.units * 10n ** BigInt(-shift)
      : roundToStep(value.units, 10n ** BigInt(shift), rounding) / 10n ** BigInt(shift);
  return formatDecimal(roundToStep(scaled, step, rounding), scale);
}

/**
 * A display price on the book's tick grid: rounded down (the default; a buyer's safe side) or up
 * (a seller's).
 *
 * @example
 * snapPrice(whbarUsdc, '0.2500049');        // "0.25" with a tick of 0.00001
 * snapPrice(whbarUsdc, '0.2500049', 'up');  // "0.25001"
 */
export function snapPrice(book: BookGrid, price: string, rounding: Rounding = 'down'): string {
  const { tickStep } = bookGrid(book);
  return snapDecimal(price, 'price', tickStep.scale, tickStep.units, rounding);
}

/** A display base size on the book's size grid, rounded down (the default) or up. */
export function snapSize(book: BookGrid, size: string, rounding: Rounding = 'down'): string {
  const grid = bookGrid(book);
  const decimals = grid.spec.baseDecimals;
  return snapDecimal(size, 'size', decimals, grid.sizeStepRaw, rounding);
}

/** The fields of a book an order request needs: its grid, id and token addresses. */
export type BookForOrders = BookGrid & Pick<OrderbookItem, 'id' | 'baseTokenEvmAddress' | 'quoteTokenEvmAddress'>;

/** Options of an order request beyond its price and amounts. */
export interface OrderRequestOptions {
  /** LIMIT only: unix seconds. */
  readonly deadline?: string | number | undefined;
  readonly recipient?: string | undefined;
  readonly makerOnly?: boolean | undefined;
  readonly takerOnce?: boolean | undefined;
  /**
   * Opt in to the book's pool: on a book with `isAMMEnabled: 1` the order may take part of its size
   * from the book's constant-product pool, never at a price worse than its limit. Ignored by the
   * server (the built order says `meta.isAMMEnabled: false`) on a book without one.
   */
  readonly isAMMEnabled?: boolean | undefined;
}

export interface LimitOrderSpec extends OrderRequestOptions {
  readonly side: OrderSide;
  /** Display price, quote per base, on the tick grid ({@link snapPrice}). */
  readonly price: string;
  /** Display base size, on the size grid ({@link snapSize}). */
  readonly size: string;
}

function sideAmounts(book: BookForOrders, side: OrderSide, baseRaw: bigint, quoteRaw: bigint) {
  const base = { token: book.baseTokenEvmAddress, amount: baseRaw.toString() };
  const quote = { token: book.quoteTokenEvmAddress, amount: quoteRaw.toString() };
  const [input, output] = side === 'sell' ? [base, quote] : [quote, base];
  return { inputToken: input.token, inputAmount: input.amount, outputToken: output.token, outputAmount: output.amount };
}

function withOptions(options: OrderRequestOptions): Partial<OrderRequest> {
  const { deadline, recipient, makerOnly, takerOnce, isAMMEnabled } = options;
  return Object.fromEntries(
    Object.entries({ deadline, recipient, makerOnly, takerOnce, isAMMEnabled }).filter(([, value]) => value !== undefined),
  ) as Partial<OrderRequest>;
}

/**
 * The `POST /orders/build` request of a limit order given as a display price and size: a sell
 * spends exactly `size` of the base token for at least `price * size` of the quote token, a buy
 * the reverse. The size is exact; a price or size off the grid, or an order below the lot size or
 * minimum notional, is refused here rather than by the server. Where `price * size` is a fraction
 * of a quote raw unit (a grid finer than the quote token, as the live HBAR/USDC book), it is
 * rounded in the signer's favour: up for what a seller receives, down for what a buyer pays.
 *
 * @example
 * limitOrderRequest(whbarUsdc, { side: 'buy', price: '0.249', size: '100' });
 * limitOrderRequest(whbarUsdc, { side: 'buy', price: '0.252', size: '100', isAMMEnabled: true }); // may take from the pool
 */
export function limitOrderRequest(book: BookForOrders, spec: LimitOrderSpec): OrderRequest {
  const grid = bookGrid(book);
  if (spec.side !== 'buy' && spec.side !== 'sell') throw new InvalidParameterError('side', 'side must be buy or sell');
  const ticks = asParameter('price', () => grid.parsePrice(spec.price));
  const baseRaw = asParameter('size', () => fromDisplayAmount(spec.size, grid.spec.baseDecimals, 'size'));
  const steps = asParameter('size', () => grid.baseSteps(baseRaw, 'size'));
  if (ticks === 0n) throw new InvalidParameterError('price', 'price must be greater than zero');
  const quoteRaw = grid.quoteAmount(ticks, steps, spec.side === 'sell' ? 'up' : 'down');
  const violation = grid.check(steps, quoteRaw);
  if (violation === 'BELOW_LOT_SIZE') {
    throw new InvalidParameterError('size', `size is below the lot size of ${grid.describeLot()}`);
  }
  if (violation === 'BELOW_MIN_NOTIONAL') {
    throw new InvalidParameterError('size', `price times size is below the minimum notional of ${grid.describeMinNotional()}`);
  }
  return {
    orderbookId: book.id,
    type: 'LIMIT',
    ...sideAmounts(book, spec.side, baseRaw, quoteRaw),
    ...withOptions(spec),
  };
}

export interface MarketOrderSpec {
  readonly side: OrderSide;
  /** Raw units spent: base for a sell, quote for a buy. A quote's `snappedInputAmount` fits. */
  readonly inputAmount: RawAmount;
  /** Least raw units to receive; a quote's `suggestedOutputAmount` fits. Default 1: any price. */
  readonly minOutputAmount?: RawAmount | undefined;
  readonly recipient?: string | undefined;
  readonly takerOnce?: boolean | undefined;
  /**
   * Opt in to the book's pool (see {@link OrderRequestOptions.isAMMEnabled}). Bound the price with
   * the quote the order will meet: `isAMMEnabled: true` in the quote includes the pool, `false` is the
   * book alone.
   */
  readonly isAMMEnabled?: boolean | undefined;
}

/**
 * The request of an immediate-or-cancel market order: it trades what it can at once and the rest
 * is cancelled. Bound its price with `minOutputAmount`.
 *
 * @example
 * // Spend 5 USDC on book 1, with its pool: quote as the order will trade, pool included.
 * const quote = await getExactInputQuote(client, { orderbookId: 1, inputToken: usdc, inputAmount: 5_000_000n, isAMMEnabled: true });
 * marketOrderRequest(whbarUsdc, {
 *   side: 'buy',
 *   inputAmount: quote.snappedInputAmount,
 *   minOutputAmount: quote.suggestedOutputAmount,
 *   isAMMEnabled: true,
 * });
 */
export function marketOrderRequest(book: BookForOrders, spec: MarketOrderSpec): OrderRequest {
  if (spec.side !== 'buy' && spec.side !== 'sell') throw new InvalidParameterError('side', 'side must be buy or sell');
  const input = BigInt(rawAmountParameter(spec.inputAmount, 'inputAmount'));
  const output = BigInt(rawAmountParameter(spec.minOutputAmount ?? 1n, 'minOutputAmount'));
  const [baseRaw, quoteRaw] = spec.side === 'sell' ? [input, output] : [output, input];
  return {
    orderbookId: book.id,
    type: 'MARKET',
    ...sideAmounts(book, spec.side, baseRaw, quoteRaw),
    ...withOptions({ recipient: spec.recipient, takerOnce: spec.takerOnce, isAMMEnabled: spec.isAMMEnabled }),
  };
}
