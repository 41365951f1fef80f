/**
 * Answers of either generation of the server, read into one shape. Servers before the
 * live-compatible shapes sent some fields as numbers that are strings now (ids, percents,
 * deadlines), times as unix ms that are ISO-8601 text now, a resting order as `OPEN` where it is
 * `ACTIVE` now, cancellation skips as objects where they are ids now, a book's lot size and minimum
 * notional as display decimals where they are raw units now, and `null` for a price not yet known
 * where it is `"0"` now. Each reader takes either
 * form and gives the current one, so code built on the SDK sees one shape whatever it talks to.
 * The parameters are typed as the current shape; at run time any field may hold its older form.
 */

import { rawBookLimits } from './amounts.js';
import type {
  CancelResult,
  FeeRates,
  HistoryEvent,
  OrderHistory,
  OrderListItem,
  OrderStatus,
  OrdersPage,
  SavedOrder,
} from './order-types.js';
import type { BooksPage, DepthSnapshot, OrderbookItem } from './types.js';

/** An id or decimal sent as a number by older servers. */
export function idText(value: string | number): string {
  return typeof value === 'number' ? String(value) : value;
}

/** Unix ms (older servers) or ISO-8601 text, as ISO-8601 text. */
export function isoText(value: string | number): string {
  return typeof value === 'number' ? new Date(value).toISOString() : value;
}

/** A display percent sent as a number by older servers, as text with the current decimals. */
function percentText<T extends string | null>(value: T | number, decimals: number): T | string {
  return typeof value === 'number' ? value.toFixed(decimals) : value;
}

/** `OPEN` (older servers) is the `ACTIVE` of now. */
export function statusWord(value: OrderStatus | 'OPEN'): OrderStatus {
  return value === 'OPEN' ? 'ACTIVE' : value;
}

/** The prices of a book that older servers sent as `null` before any trade, where `"0"` is sent now. */
const BOOK_PRICES = ['quotePrice', 'quotePrice24hHigh', 'quotePrice24hLow'] as const;

export function readBook(book: OrderbookItem): OrderbookItem {
  const read = {
    ...book,
    quotePrice24hPct: percentText(book.quotePrice24hPct, 4),
    createdAt: isoText(book.createdAt),
    updatedAt: isoText(book.updatedAt),
  };
  for (const field of BOOK_PRICES) if ((read[field] as string | null) === null) read[field] = '0';
  const { baseTokenDecimals, quoteTokenDecimals, lotSize } = book;
  const knowsGrid =
    typeof baseTokenDecimals === 'number' && typeof quoteTokenDecimals === 'number' && typeof lotSize === 'string';
  return knowsGrid ? { ...read, ...rawBookLimits(book) } : read;
}

export function readBooksPage(page: BooksPage): BooksPage {
  return { ...page, orderbooks: page.orderbooks.map(readBook) };
}

export function readDepth(depth: DepthSnapshot): DepthSnapshot {
  return { ...depth, orderbookId: idText(depth.orderbookId), spreadPercent: percentText(depth.spreadPercent, 4) };
}

export function readSavedOrder(order: SavedOrder): SavedOrder {
  const { meta } = order;
  return {
    ...order,
    meta: {
      ...meta,
      id: idText(meta.id),
      orderbookId: idText(meta.orderbookId),
      status: statusWord(meta.status),
      createdAt: isoText(meta.createdAt),
      ...(meta.updatedAt === undefined ? {} : { updatedAt: isoText(meta.updatedAt) }),
    },
  };
}

type SkippedItem = number | { readonly orderId: number; readonly reason: CancelResult['skippedDetails'][number]['reason'] };

export function readCancelResult(
  result: Omit<CancelResult, 'skipped'> & { readonly skipped: readonly SkippedItem[] },
): CancelResult {
  const details = result.skipped.flatMap((item) => (typeof item === 'number' ? [] : [item]));
  return {
    ...result,
    skipped: result.skipped.map((item) => (typeof item === 'number' ? item : item.orderId)),
    skippedDetails: result.skippedDetails ?? details,
  };
}

export function readOrderListItem(order: OrderListItem): OrderListItem {
  return {
    ...order,
    orderbookId: idText(order.orderbookId),
    createdAt: isoText(order.createdAt),
    updatedAt: isoText(order.updatedAt),
    percentFilled: percentText(order.percentFilled, 2),
    status: statusWord(order.status),
    deadline: idText(order.deadline),
  };
}

export function readOrdersPage(page: OrdersPage): OrdersPage {
  return { ...page, orders: page.orders.map(readOrderListItem) };
}

function readHistoryEvent(event: HistoryEvent): HistoryEvent {
  return { ...event, id: idText(event.id) };
}

export function readHistory(history: OrderHistory): OrderHistory {
  return { ...history, orderbookId: idText(history.orderbookId), events: history.events.map(readHistoryEvent) };
}

/** Older servers gave the book id as a number; the market id is that id as 32 bytes of 0x-hex. */
export function readFees(fees: FeeRates): FeeRates {
  const marketId: unknown = fees.marketId;
  return typeof marketId === 'number' ? { ...fees, marketId: `0x${marketId.toString(16).padStart(64, '0')}` } : fees;
}
