import { type MarketGrid, percentText, type WireOrder } from '@dex/core';
import { type HistoryEvent, isoTime, type OrderListItem, type SavedOrder } from '@dex/protocol';
import type { OrderEventRecord, OrderRecord } from '../../domain/orders/order-records.js';
import { wireStatus } from '../../domain/orders/wire-status.js';
import type { ListedOrder } from '../../ports/store/order-ports.js';
import type { Market, MarketRegistry } from '../markets/market-registry.js';

/**
 * A limit order shows its price and its size at that price (rounded as its limit is: up for a
 * seller, down for a buyer, on a grid finer than a quote raw unit). A market order has no
 * meaningful limit price (a market buy may have none at all), so it shows its average fill price,
 * floored onto the grid, and the quote it actually exchanged.
 */
export function priceAndTotal(
  order: Pick<OrderRecord, 'type' | 'side' | 'priceTicks' | 'quantitySteps' | 'filledSteps' | 'filledInput' | 'filledOutput'>,
  grid: MarketGrid,
): { price: string; total: string } {
  if (order.type === 'LIMIT') {
    return {
      price: grid.formatPrice(order.priceTicks),
      total: grid.formatQuote(grid.quoteAmount(order.priceTicks, order.quantitySteps, order.side === 'sell' ? 'up' : 'down')),
    };
  }
  const quote = order.side === 'buy' ? order.filledInput : order.filledOutput;
  const ticks = order.filledSteps === 0 ? 0n : grid.ticksAtRate(quote, grid.baseAmount(order.filledSteps), 'down');
  return { price: grid.formatPrice(ticks), total: grid.formatQuote(quote) };
}

export function marketOf(registry: MarketRegistry, bookId: number): Market {
  const market = registry.get(bookId);
  if (market === undefined) throw new Error(`order of unknown book ${bookId}`);
  return market;
}

export function listItemOf(registry: MarketRegistry, order: ListedOrder): OrderListItem {
  const market = marketOf(registry, order.bookId);
  const { grid } = market;
  return {
    id: order.id,
    orderbookId: String(order.bookId),
    orderHash: order.orderHash,
    createdAt: isoTime(order.createdAt),
    updatedAt: isoTime(order.updatedAt),
    pair: `${market.base.symbol}/${market.quote.symbol}`,
    type: order.type,
    direction: order.side,
    ...priceAndTotal(order, grid),
    amount: grid.formatBase(grid.baseAmount(order.quantitySteps)),
    filledAmount: grid.formatBase(grid.baseAmount(order.filledSteps)),
    percentFilled:
      order.quantitySteps === 0 ? '0.00' : percentText(BigInt(order.filledSteps), BigInt(order.quantitySteps), 2, 'down'),
    status: wireStatus(order.status),
    reason: order.reason,
    nonce: order.nonce.toString(),
    deadline: String(order.deadline),
    ocoLinkedOrderId: order.ocoOrderId,
    hcsInitialTransactionId: null,
    sequence: order.sequence,
  };
}

export function savedOrderOf(order: OrderRecord, signed: WireOrder): SavedOrder {
  return {
    ...signed,
    meta: {
      id: String(order.id),
      orderbookId: String(order.bookId),
      type: order.type,
      status: wireStatus(order.status),
      reason: order.reason,
      orderHash: order.orderHash,
      signature: order.signature,
      isAMMEnabled: order.useAmm,
      selfTradePrevention: order.selfTradePrevention,
      filledAmount: order.filledInput.toString(),
      hcsInitialTransactionId: null,
      createdAt: isoTime(order.createdAt),
      updatedAt: isoTime(order.updatedAt),
    },
  };
}

export function historyEventOf(registry: MarketRegistry, bookId: number, event: OrderEventRecord): HistoryEvent {
  const { grid } = marketOf(registry, bookId);
  const { fill } = event;
  return {
    id: String(event.id),
    sequence: event.sequence,
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
    htsResponseCode: null,
  };
}
