import { BUY } from '@dex/core';
import type { CommittedOrderEvent, DeskCommit } from '../../application/desk/desk-events.js';
import type { Market, MarketRegistry } from '../../application/markets/market-registry.js';
import { historyEventOf } from '../../application/orders/order-views.js';
import { wireStatus } from '../../domain/orders/wire-status.js';
import type { Metrics } from '../../ports/metrics.js';
import { ConnectionIndex } from './connection-index.js';
import {
  type EncodedBody,
  encodeBody,
  type MessageBody,
  type OrderCreatedMessage,
  USER_EVENT_TYPES,
  type UserEventMessage,
} from './protocol.js';
import type { StreamConnection } from './stream-connection.js';

const flag = (value: boolean): 0 | 1 => (value ? 1 : 0);

/** /ws/user-events: every stored history event of an account's orders goes to that account's connections that follow the book. */
export class UserChannel {
  private readonly byAccount = new ConnectionIndex<string>();

  constructor(
    private readonly registry: MarketRegistry,
    private readonly metrics: Metrics,
  ) {}

  add(connection: StreamConnection): void {
    this.byAccount.add(connection.subscription.account, connection);
  }

  remove(connection: StreamConnection): void {
    this.byAccount.remove(connection.subscription.account, connection);
  }

  publish(commit: DeskCommit): void {
    let sent = 0;
    for (const event of commit.orderEvents) {
      const connections = this.byAccount.get(event.account);
      if (connections === undefined) continue;
      let encoded: EncodedBody | undefined;
      for (const connection of connections) {
        if (!connection.follows(event.bookId)) continue;
        encoded ??= this.encode(event);
        if (connection.send(encoded)) sent++;
      }
    }
    this.metrics.streamMessagesSent('user-events', sent);
  }

  private encode(event: CommittedOrderEvent): EncodedBody {
    const market = this.registry.get(event.bookId);
    if (market === undefined) throw new Error(`an event of order ${event.orderId} names unknown book ${event.bookId}`);
    const view = historyEventOf(this.registry, event.bookId, event);
    const body: MessageBody<UserEventMessage> = {
      type: USER_EVENT_TYPES[event.type],
      eventId: event.id,
      sequence: event.sequence,
      orderId: String(event.orderId),
      orderbookId: String(event.bookId),
      timestamp: view.timestamp,
      swapper: event.order.swapper,
      status: wireStatus(event.status),
      reason: view.reason,
      filledAmount: market.grid.formatBase(market.grid.baseAmount(event.filledSteps)),
      txHash: view.txHash,
      fill: view.fill,
    };
    return encodeBody(event.type === 'CREATED' ? { ...body, ...createdFields(market, event) } : body);
  }
}

/** What ORDER_CREATED adds: the order's side, signed limit price, size, kind, deadline and flags. */
function createdFields(market: Market, event: CommittedOrderEvent): Omit<OrderCreatedMessage, keyof UserEventMessage> {
  const { grid } = market;
  const { order } = event;
  return {
    side: order.side === BUY ? 'buy' : 'sell',
    price: grid.formatPrice(order.priceTicks),
    amount: grid.formatBase(grid.baseAmount(order.quantitySteps)),
    orderType: order.type,
    expiresAt: order.deadlineMs,
    makerOnly: flag(order.makerOnly),
    takerOnce: flag(order.takerOnce),
  };
}
