import type { CommittedOrderEvent, DeskCommit } from '../modules/orders/desk-events.js';
import { historyEventOf } from '../modules/orders/order-views.js';
import type { MarketRegistry } from '../registry/market-registry.js';
import { ConnectionIndex } from './connection-index.js';
import { encodeBody, type MessageBody, STATUS_AFTER, USER_EVENT_TYPES, type UserEventMessage } from './protocol.js';
import type { StreamConnection } from './stream-connection.js';

/** /ws/user-events: every stored history event of an account's orders goes to that account's connections that follow the book. */
export class UserChannel {
  private readonly byAccount = new ConnectionIndex<string>();

  constructor(private readonly registry: MarketRegistry) {}

  add(connection: StreamConnection): void {
    this.byAccount.add(connection.subscription.account, connection);
  }

  remove(connection: StreamConnection): void {
    this.byAccount.remove(connection.subscription.account, connection);
  }

  publish(commit: DeskCommit): void {
    for (const event of commit.orderEvents) {
      const connections = this.byAccount.get(event.account);
      if (connections === undefined) continue;
      let encoded: string | undefined;
      for (const connection of connections) {
        if (!connection.follows(event.bookId)) continue;
        encoded ??= this.encode(event);
        connection.send(encoded);
      }
    }
  }

  private encode(event: CommittedOrderEvent): string {
    const market = this.registry.get(event.bookId);
    if (market === undefined) throw new Error(`an event of order ${event.orderId} names unknown book ${event.bookId}`);
    const view = historyEventOf(this.registry, event.bookId, event);
    const body: MessageBody<UserEventMessage> = {
      type: USER_EVENT_TYPES[event.type],
      eventId: view.id,
      orderId: event.orderId,
      orderbookId: event.bookId,
      timestamp: view.timestamp,
      status: STATUS_AFTER[event.type],
      reason: view.reason,
      filledAmount: market.grid.formatBase(market.grid.baseAmount(event.filledSteps)),
      txHash: view.txHash,
      fill: view.fill,
    };
    return encodeBody(body);
  }
}
