import { StreamError } from '../errors.js';
import type { HistoryEventType, OrderHistory, OrderStatus } from '../order-types.js';
import { decimalKey, decimalOfKey } from './decimal-key.js';
import type { UserEvent, UserEventType } from './messages.js';

const TYPE: Readonly<Record<HistoryEventType, [UserEventType, OrderStatus]>> = {
  CREATED: ['ORDER_CREATED', 'ACTIVE'],
  PARTIAL_FILL: ['ORDER_PARTIALLY_FILLED', 'PARTIALLY_FILLED'],
  FILLED: ['ORDER_FILLED', 'FILLED'],
  CANCELED: ['ORDER_CANCELED', 'CANCELED'],
  EXPIRED: ['ORDER_EXPIRED', 'EXPIRED'],
  REJECTED: ['ORDER_REJECTED', 'REJECTED'],
};

/**
 * An order's history as the stream would have told it: each event with the order's status and
 * filled amount after it (the history gives each fill's amount; the filled amount is their sum).
 */
export function historyEvents(history: OrderHistory): UserEvent[] {
  let filled = 0n;
  return history.events.map((event) => {
    const known = TYPE[event.type];
    if (known === undefined) {
      throw new StreamError('malformed', `Order ${history.orderId} has a history event of unknown type`, {
        details: JSON.stringify(String(event.type).slice(0, 40)),
      });
    }
    const [type, status] = known;
    if (event.fill !== null) filled += decimalKey(event.fill.amountBase, 'fill amount');
    return {
      type,
      eventId: Number(event.id),
      orderId: String(history.orderId),
      orderbookId: history.orderbookId,
      timestamp: event.timestamp,
      status,
      reason: event.reason,
      filledAmount: decimalOfKey(filled),
      txHash: event.txHash,
      fill: event.fill,
    };
  });
}
