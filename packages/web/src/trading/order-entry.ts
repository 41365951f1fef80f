import {
  type BookForOrders,
  InvalidParameterError,
  type LimitOrderSpec,
  limitOrderRequest,
  marketOrderRequest,
  type OrderRequest,
  type OrderSide,
  snapPrice,
  snapSize,
  toDisplay,
  toRaw,
} from '@dex/sdk';

/** The order form as typed: exact text, never a float. */
export type OrderInput =
  | { readonly type: 'limit'; readonly side: OrderSide; readonly price: string; readonly size: string }
  /** A market order spends `amount`: base for a sell, quote for a buy. */
  | { readonly type: 'market'; readonly side: OrderSide; readonly amount: string };

/** The order as it will be sent, in display units, for the user to check before placing it. */
export interface OrderPreview {
  readonly request: OrderRequest;
  /** Limit only: the price on the tick grid. */
  readonly price?: string;
  /** Base size: on the size grid for a limit order or a market sell. */
  readonly size?: string;
  /** Quote amount: what a limit order is worth at its price, or what a market buy spends. */
  readonly total?: string;
}

export type OrderCheck = { readonly ok: true; readonly preview: OrderPreview } | { readonly ok: false; readonly error: unknown };

type Book = BookForOrders;

const baseDecimals = (book: Book) => book.baseTokenDecimals ?? 0;
const quoteDecimals = (book: Book) => book.quoteTokenDecimals ?? 0;

/**
 * A limit order on the grid: the price rounded to the side that cannot trade worse than typed (down
 * for a buy, up for a sell), the size down to its step. The SDK refuses what the grid still refuses
 * (below the lot size or the minimum notional).
 */
function limitPreview(book: Book, input: Extract<OrderInput, { type: 'limit' }>): OrderPreview {
  const spec: LimitOrderSpec = {
    side: input.side,
    price: snapPrice(book, input.price, input.side === 'buy' ? 'down' : 'up'),
    size: snapSize(book, input.size, 'down'),
  };
  const request = limitOrderRequest(book, spec);
  const quoteRaw = input.side === 'buy' ? request.inputAmount : request.outputAmount;
  return { request, price: spec.price, size: spec.size, total: toDisplay(quoteRaw, quoteDecimals(book)) };
}

/** A quote amount in raw units; more digits than the token has is refused as the amount's fault. */
function quoteRaw(amount: string, decimals: number): bigint {
  try {
    return toRaw(amount, decimals);
  } catch (error) {
    throw error instanceof InvalidParameterError ? new InvalidParameterError('amount', error.message) : error;
  }
}

/** A market order, immediate or cancel at any price the book gives: a sell of a base size on the size grid, a buy of a quote amount. */
function marketPreview(book: Book, input: Extract<OrderInput, { type: 'market' }>): OrderPreview {
  if (input.side === 'sell') {
    const size = snapSize(book, input.amount, 'down');
    const inputAmount = toRaw(size, baseDecimals(book));
    if (inputAmount === 0n) throw new InvalidParameterError('size', `the size is below the size step ${book.sizeStep}`);
    return { request: marketOrderRequest(book, { side: 'sell', inputAmount }), size };
  }
  const inputAmount = quoteRaw(input.amount, quoteDecimals(book));
  if (inputAmount === 0n) throw new InvalidParameterError('amount', 'the amount must be greater than zero');
  return { request: marketOrderRequest(book, { side: 'buy', inputAmount }), total: toDisplay(inputAmount, quoteDecimals(book)) };
}

/** What the form would place, or why it cannot (the SDK's own refusal, to show with its message). */
export function checkOrder(book: Book, input: OrderInput): OrderCheck {
  try {
    return { ok: true, preview: input.type === 'limit' ? limitPreview(book, input) : marketPreview(book, input) };
  } catch (error) {
    return { ok: false, error };
  }
}
