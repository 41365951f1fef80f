import type { MarketGrid, WireOrder } from '@dex/core';
import type { Market, MarketRegistry } from '../../registry/market-registry.js';
import type { OrderEventRecord, OrderRecord, OrderState } from '../../store/order-ports.js';

/** An order as `GET /orders` lists it: display amounts of the book's tokens. */
export interface OrderListItem {
  id: number;
  orderbookId: number;
  orderHash: string;
  createdAt: number;
  updatedAt: number;
  pair: string;
  type: 'LIMIT' | 'MARKET';
  direction: 'buy' | 'sell';
  price: string;
  amount: string;
  filledAmount: string;
  percentFilled: number;
  status: OrderState;
  reason: string | null;
  total: string;
  nonce: string;
  deadline: number;
  ocoLinkedOrderId: number | null;
}

/** A saved order as `POST /orders/save` answers it: the signed order plus server metadata. */
export interface SavedOrder extends WireOrder {
  meta: {
    id: number;
    orderbookId: number;
    type: 'LIMIT' | 'MARKET';
    status: OrderState;
    reason: string | null;
    orderHash: string;
    /** Raw input token units spent so far. */
    filledAmount: string;
    createdAt: number;
  };
}

export interface HistoryEventView {
  id: number;
  type: OrderEventRecord['type'];
  timestamp: number;
  txHash: string | null;
  reason: string | null;
  fill: {
    tradeId: number;
    role: 'maker' | 'taker';
    price: string;
    amountBase: string;
    baseAmount: string;
    quoteAmount: string;
  } | null;
}

/** Percent with two decimals, floored, for display only. */
function percentOf(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.floor((part * 10_000) / whole) / 100;
}

/**
 * A market order has no meaningful limit price (a market buy may have none at all), so it shows
 * its average fill price, floored onto the grid, and the quote it actually exchanged.
 */
function priceAndTotal(order: OrderRecord, grid: MarketGrid): { price: string; total: string } {
  if (order.type === 'LIMIT') {
    return {
      price: grid.formatPrice(order.priceTicks),
      total: grid.formatQuote(grid.quoteAmount(order.priceTicks, order.quantitySteps)),
    };
  }
  const quote = order.side === 'buy' ? order.filledInput : order.filledOutput;
  const ticks = order.filledSteps === 0 ? 0n : quote / (grid.quotePerTickStep * BigInt(order.filledSteps));
  return { price: grid.formatPrice(Number(ticks)), total: grid.formatQuote(quote) };
}

function marketOf(registry: MarketRegistry, bookId: number): Market {
  const market = registry.get(bookId);
  if (market === undefined) throw new Error(`order of unknown book ${bookId}`);
  return market;
}

export function listItemOf(registry: MarketRegistry, order: OrderRecord): OrderListItem {
  const market = marketOf(registry, order.bookId);
  const { grid } = market;
  return {
    id: order.id,
    orderbookId: order.bookId,
    orderHash: order.orderHash,
    createdAt: order.createdAt,
    updatedAt: order.updatedAt,
    pair: `${market.base.symbol}/${market.quote.symbol}`,
    type: order.type,
    direction: order.side,
    ...priceAndTotal(order, grid),
    amount: grid.formatBase(grid.baseAmount(order.quantitySteps)),
    filledAmount: grid.formatBase(grid.baseAmount(order.filledSteps)),
    percentFilled: percentOf(order.filledSteps, order.quantitySteps),
    status: order.status,
    reason: order.reason,
    nonce: order.nonce.toString(),
    deadline: order.deadline,
    ocoLinkedOrderId: order.ocoOrderId,
  };
}

export function savedOrderOf(order: OrderRecord, signed: WireOrder): SavedOrder {
  return {
    ...signed,
    meta: {
      id: order.id,
      orderbookId: order.bookId,
      type: order.type,
      status: order.status,
      reason: order.reason,
      orderHash: order.orderHash,
      filledAmount: order.filledInput.toString(),
      createdAt: order.createdAt,
    },
  };
}

export function historyEventOf(registry: MarketRegistry, bookId: number, event: OrderEventRecord): HistoryEventView {
  const { grid } = marketOf(registry, bookId);
  const { fill } = event;
  return {
    id: event.id,
    type: event.type,
    timestamp: event.timestamp,
    txHash: event.txHash,
    reason: event.reason,
    fill:
      fill === null
        ? null
        : {
            tradeId: fill.tradeId,
            role: fill.role,
            price: fill.price,
            amountBase: grid.formatBase(fill.baseAmount),
            baseAmount: fill.baseAmount.toString(),
            quoteAmount: fill.quoteAmount.toString(),
          },
  };
}
