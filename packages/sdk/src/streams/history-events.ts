import { StreamError } from '../errors.js';
import type { HistoryEventType, OrderHistory, OrderStatus } from '../order-types.js';
import { decimalKey, decimalOfKey } from './decimal-key.js';
import type { UserEvent, UserEventType } from './messages.js';

/** Each event type's stream type and the status it leaves; a reverted fill's status depends on the order. */
const TYPE: Readonly<Record<HistoryEventType, [UserEventType, OrderStatus | null]>> = {
  CREATED: ['ORDER_CREATED', 'ACTIVE'],
  PARTIAL_FILL: ['ORDER_PARTIALLY_FILLED', 'PARTIALLY_FILLED'],
  FILLED: ['ORDER_FILLED', 'FILLED'],
  FILL_REVERTED: ['ORDER_FILL_REVERTED', null],
  CANCELED: ['ORDER_CANCELED', 'CANCELED'],
  EXPIRED: ['ORDER_EXPIRED', 'EXPIRED'],
  REJECTED: ['ORDER_REJECTED', 'REJECTED'],
};

const ENDED_UNFILLED: ReadonlySet<OrderStatus> = new Set(['CANCELED', 'EXPIRED', 'REJECTED']);

/**
 * The status after a fill is given back: an order that was cancelled or expired stays so, with
 * the smaller fill; any other is open again with what stays filled (an event may end it next).
 */
function statusAfterRevert(before: OrderStatus, filled: bigint): OrderStatus {
  if (ENDED_UNFILLED.has(before)) return before;
  return filled === 0n ? 'ACTIVE' : 'PARTIALLY_FILLED';
}

/**
 * An order's history as the stream would have told it: each event with its sequence (its place in
 * the history, from 1, where the server does not send it) and the order's status and filled amount
 * after it (the history gives each fill's amount; the filled amount is their sum, less the fills
 * given back).
 */
export function historyEvents(history: OrderHistory): UserEvent[] {
  let filled = 0n;
  let status: OrderStatus = 'ACTIVE';
  return history.events.map((event, index) => {
    const known = TYPE[event.type];
    if (known === undefined) {
      throw new StreamError('malformed', `Order ${history.orderId} has a history event of unknown type`, {
        details: JSON.stringify(String(event.type).slice(0, 40)),
      });
    }
    const [type, statusAfter] = known;
    if (event.fill !== null) {
      const amount = decimalKey(event.fill.amountBase, 'fill amount');
      filled += event.type === 'FILL_REVERTED' ? -amount : amount;
    }
    status = statusAfter ?? statusAfterRevert(status, filled);
    return {
      type,
      eventId: Number(event.id),
      sequence: event.sequence ?? index + 1,
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
